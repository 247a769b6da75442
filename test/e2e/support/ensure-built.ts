/**
 * Makes sure `dist/` (what `bin/decom.js` runs) is at least as new as every TypeScript source of apps/
 * and libs/, running `npm run build` (≈35 s here) when it is not, so a test of the built binary never
 * runs yesterday's code.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

function newestMtimeMs(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtimeMs(path));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

export function ensureBuilt(): void {
  const root = resolve('.');
  const main = join(root, 'dist/apps/cli/src/main.js');
  const sources = Math.max(newestMtimeMs(join(root, 'apps')), newestMtimeMs(join(root, 'libs')));
  // tsc rewrites every output on each build, so main.js's mtime dates the build.
  if (existsSync(main) && statSync(main).mtimeMs >= sources) return;
  execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore', timeout: 180_000 });
}
