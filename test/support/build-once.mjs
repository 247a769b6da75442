// Jest globalSetup of the integration project: builds dist/ (the CLI, the worker and the web UI) once,
// before any worker starts, when a source changed since the last build. Suites run in parallel workers, so
// a suite that builds for itself could rewrite dist/ under another suite's running binary or served UI.
// A run in one process (--runInBand, -w 1) has no such race: the suites that need dist/ build it
// themselves (ensureBuilt), and a run that needs none does not pay for a build.
import { spawnSync } from 'node:child_process';

export default function buildOnce(globalConfig) {
  if (globalConfig.maxWorkers <= 1) return;
  const build = spawnSync(process.execPath, ['scripts/build-if-stale.mjs'], { stdio: 'inherit' });
  if (build.status !== 0) throw new Error(`the build failed (exit ${build.status}): the integration suites test dist/`);
}
