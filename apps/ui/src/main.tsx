/**
 * Decom's web UI: stuck deletions, resource pages, replay, audit, operator actions. React 19,
 * bundled by Vite into `dist/ui` and served by the engine at `/ui/`. Routes are URL fragments
 * (`#/resource/<id>`) so the engine serves plain files only.
 */
import { StrictMode, useCallback, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { ApiError, session, whoami, type WhoAmI } from './api';
import { OutageBanner } from './components/OutageBanner';
import { ProblemView } from './components/ProblemView';
import type { OutageNotice } from './outage';
import { OutageReportContext, sameNotices } from './outage-report';
import { ApprovalsPage } from './pages/ApprovalsPage';
import { AuditPage } from './pages/AuditPage';
import { LoginPage } from './pages/LoginPage';
import { ReplayPage } from './pages/ReplayPage';
import { ResourcePage } from './pages/ResourcePage';
import { StuckPage } from './pages/StuckPage';
import './styles.css';

function useRoute(): string {
  const [route, setRoute] = useState(window.location.hash.slice(1) || '/');
  useEffect(() => {
    const onHash = () => setRoute(window.location.hash.slice(1) || '/');
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  return route;
}

function App() {
  const route = useRoute();
  const [me, setMe] = useState<WhoAmI>();
  const [error, setError] = useState<unknown>();
  const refreshMe = useCallback(() => {
    whoami().then(
      (w) => {
        setMe(w);
        setError(undefined);
      },
      (e) => {
        setMe(undefined);
        setError(e);
        if (e instanceof ApiError && e.problem.status === 401) window.location.hash = '#/login';
      },
    );
  }, []);
  useEffect(refreshMe, [refreshMe]);
  // The current page's outage notices, shown above it (the page reports them, see useOutageReport).
  const [notices, setNotices] = useState<readonly OutageNotice[]>([]);
  const reportOutage = useCallback((next: readonly OutageNotice[]) => setNotices((prev) => (sameNotices(prev, next) ? prev : next)), []);

  const [, path = '', arg = ''] = route.split('/');
  let page;
  if (path === 'login')
    page = (
      <LoginPage
        onLogin={() => {
          refreshMe();
          window.location.hash = '#/';
        }}
      />
    );
  else if (path === 'resource' && arg) page = <ResourcePage key={arg} id={arg} me={me} />;
  else if (path === 'replay' && arg) page = <ReplayPage key={arg} id={arg} />;
  else if (path === 'audit') page = <AuditPage />;
  else if (path === 'approvals') page = <ApprovalsPage me={me} />;
  else page = <StuckPage />;

  const who = me?.unauthenticated ? `${session.identity() || 'anonymous'} (authentication off)` : me?.identity;
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header>
        <nav aria-label="Main">
          <strong className="brand">Decom</strong>
          <a href="#/" aria-current={path === '' ? 'page' : undefined}>
            Stuck deletions
          </a>
          <a href="#/audit" aria-current={path === 'audit' ? 'page' : undefined}>
            Audit
          </a>
          <a href="#/approvals" aria-current={path === 'approvals' ? 'page' : undefined}>
            Approvals
          </a>
          <span className="spacer" />
          {who ? <span className="who">{who}</span> : null}
          <a href="#/login">{session.token() ? 'Change token' : 'Sign in'}</a>
          {session.token() ? (
            <button
              type="button"
              className="link"
              onClick={() => {
                session.clear();
                refreshMe();
              }}
            >
              Sign out
            </button>
          ) : null}
        </nav>
      </header>
      <main id="main" tabIndex={-1}>
        <OutageBanner notices={notices} />
        {path !== 'login' ? <ProblemView error={error} /> : null}
        <OutageReportContext.Provider value={reportOutage}>{page}</OutageReportContext.Provider>
      </main>
    </>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
