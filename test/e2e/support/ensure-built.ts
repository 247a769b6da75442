/**
 * Makes sure `dist/` (what `bin/decom.js` runs, with the web UI in dist/ui) is built from today's sources:
 * `scripts/build-if-stale.mjs`, the digest check `npm start` uses, builds only when a source changed. The
 * integration project's globalSetup already ran it before any suite started, so here it is a quick check
 * for a suite run on its own (the chaos suite) rather than a second build racing a running binary.
 * @throws Error when the build fails.
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

export function ensureBuilt(): void {
  const build = spawnSync(process.execPath, ['scripts/build-if-stale.mjs'], { cwd: resolve('.'), stdio: 'inherit', timeout: 180_000 });
  if (build.status !== 0) throw new Error(`the build failed (exit ${build.status ?? build.signal})`);
}
