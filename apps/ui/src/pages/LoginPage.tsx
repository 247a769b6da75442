import { useState } from 'react';
import { session } from '../api';

/**
 * Sign in with a bearer token (sent as `Authorization: Bearer <token>` on every call). Without
 * authentication configured (the embedded default) no token is needed; the optional identity then names
 * the caller in the audit trail (`X-HyperFleet-Identity`).
 */
export function LoginPage({ onLogin }: { onLogin: () => void }) {
  const [token, setToken] = useState(session.token());
  const [identity, setIdentity] = useState(session.identity());
  return (
    <section aria-labelledby="login-heading" className="login">
      <h1 id="login-heading">Sign in</h1>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          session.save(token.trim(), identity.trim());
          onLogin();
        }}
      >
        <label htmlFor="login-token">Bearer token</label>
        <input id="login-token" type="password" autoComplete="off" value={token} onChange={(e) => setToken(e.target.value)} />
        <label htmlFor="login-identity">Identity (only when the engine runs without authentication)</label>
        <input
          id="login-identity"
          type="text"
          placeholder="you@example.com"
          value={identity}
          onChange={(e) => setIdentity(e.target.value)}
        />
        <button type="submit">Sign in</button>
      </form>
      <p className="muted">The token is kept for this browser tab only (sessionStorage). See docs/ui.md for how to get one.</p>
    </section>
  );
}
