// Jest globalSetup of the integration project: builds dist/ (the CLI, the worker and the web UI) once,
// before any worker starts, when a source changed since the last build. Suites run in parallel workers, so
// a suite that builds for itself could rewrite dist/ under another suite's running binary or served UI.
import { spawnSync } from 'node:child_process';

export default function buildOnce() {
  const build = spawnSync(process.execPath, ['scripts/build-if-stale.mjs'], { stdio: 'inherit' });
  if (build.status !== 0) throw new Error(`the build failed (exit ${build.status}): the integration suites test dist/`);
}
