/**
 * Runs the **built** `decom` binary (`node bin/decom.js ...`), as a user does after `npm run build`, for
 * tests of CLI behaviour (exit codes, stdout/stderr, pipes). `ensureBuilt()` builds when a source changed
 * since the last build, so the suite never tests stale output.
 */
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';

const ROOT = resolve('.');
export const DECOM_BIN = join(ROOT, 'bin', 'decom.js');

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export { ensureBuilt } from './ensure-built.js';

/**
 * `node bin/decom.js ...args` with `env` added to a minimal environment (PATH, HOME): the parent's DECOM_*,
 * PORT and REDIS_URL do not leak in. Resolves when it exits (killed after `timeoutMs`).
 */
export function runBuiltDecom(
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
  options: { cwd?: string; timeoutMs?: number } = {},
): Promise<CliRun> {
  return runCommand(process.execPath, [DECOM_BIN, ...args], env, options);
}

/** A shell pipeline (`bash -c`), e.g. `node bin/decom.js history ID | head -2`, with `$DECOM` set to the binary. */
export function runShell(
  script: string,
  env: Readonly<Record<string, string>> = {},
  options: { cwd?: string; timeoutMs?: number } = {},
): Promise<CliRun> {
  return runCommand('bash', ['-c', script], { DECOM: `${process.execPath} ${DECOM_BIN}`, ...env }, options);
}

function runCommand(
  command: string,
  args: readonly string[],
  env: Readonly<Record<string, string>>,
  options: { cwd?: string; timeoutMs?: number },
): Promise<CliRun> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd ?? ROOT,
      env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolveRun({ code, stdout, stderr });
    });
  });
}
