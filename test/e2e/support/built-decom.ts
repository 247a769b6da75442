/**
 * Runs the **built** `decom` binary (`node bin/decom.js ...`), as a user does after `npm run build`, for
 * tests of CLI behaviour (exit codes, stdout/stderr, pipes). `ensureBuilt()` runs `npm run build` once when
 * `dist/` is missing or older than a source file, so the suite never tests stale output.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const ROOT = resolve('.');
export const DECOM_BIN = join(ROOT, 'bin', 'decom.js');
const MAIN = join(ROOT, 'dist', 'apps', 'cli', 'src', 'main.js');

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Builds when `dist` is missing or older than the newest `.ts` under apps/ and libs/ (about 40 s). */
export async function ensureBuilt(): Promise<void> {
  if (existsSync(MAIN) && statSync(MAIN).mtimeMs >= newestSource([join(ROOT, 'apps'), join(ROOT, 'libs')])) return;
  await promisify(execFile)('npm', ['run', 'build', '--silent'], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
}

function newestSource(dirs: string[]): number {
  let newest = 0;
  const stack = [...dirs];
  while (stack.length > 0) {
    const dir = stack.pop()!;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) stack.push(path);
      else if (entry.name.endsWith('.ts') && !/\.(int-|e2e-)?spec\.ts$/.test(entry.name)) newest = Math.max(newest, statSync(path).mtimeMs);
    }
  }
  return newest;
}

/**
 * `node bin/decom.js ...args` with `env` added to a minimal environment (PATH, HOME): the parent's DECOM_*,
 * PORT and REDIS_URL do not leak in. Resolves when it exits (killed after `timeoutMs`).
 */
export function runBuiltDecom(args: readonly string[], env: Readonly<Record<string, string>> = {}, options: { cwd?: string; timeoutMs?: number } = {}): Promise<CliRun> {
  return runCommand(process.execPath, [DECOM_BIN, ...args], env, options);
}

/** A shell pipeline (`bash -c`), e.g. `node bin/decom.js history ID | head -2`, with `$DECOM` set to the binary. */
export function runShell(script: string, env: Readonly<Record<string, string>> = {}, options: { cwd?: string; timeoutMs?: number } = {}): Promise<CliRun> {
  return runCommand('bash', ['-c', script], { DECOM: `${process.execPath} ${DECOM_BIN}`, ...env }, options);
}

function runCommand(command: string, args: readonly string[], env: Readonly<Record<string, string>>, options: { cwd?: string; timeoutMs?: number }): Promise<CliRun> {
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
