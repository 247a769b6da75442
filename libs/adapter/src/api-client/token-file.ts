/**
 * A bearer token read from a file (HyperFleet deployment config `clients.hyperfleet_api.auth.token_path`,
 * e.g. a projected Kubernetes service-account token), re-read when the file changes (mtime or size,
 * checked at most once per `recheckMs`, default 1 s), so a rotated token is used without a restart.
 * @throws Error naming the file when it cannot be read or is empty (the request then fails like any
 *   transport error and is retried).
 */
import { readFile, stat } from 'node:fs/promises';

export type BearerTokenSource = () => Promise<string | undefined>;

export function tokenFileSource(path: string, recheckMs = 1_000): BearerTokenSource {
  let cached: { key: string; token: string } | undefined;
  let checkedAt = 0;
  return async () => {
    const now = Date.now();
    if (cached && now - checkedAt < recheckMs) return cached.token;
    checkedAt = now;
    let key: string;
    try {
      const info = await stat(path);
      key = `${info.mtimeMs}:${info.size}`;
      if (cached?.key === key) return cached.token;
      const token = (await readFile(path, 'utf8')).trim();
      if (token === '') throw new Error('the file is empty');
      cached = { key, token };
      return token;
    } catch (error) {
      cached = undefined;
      throw new Error(`cannot read the API token file ${path}: ${(error as Error).message}`);
    }
  };
}
