/**
 * Spawns a real `decom` CLI process from the TypeScript sources (ts-register.mjs) with a given environment,
 * for tests that need separate processes: `decom worker` instances to kill with SIGKILL, say.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

export interface DecomProcess {
  readonly pid: number;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** Resolves with the output once it matches `pattern`; rejects when the process exits first or on timeout. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** Resolves with the exit code, or the signal name, once the process is gone. */
  readonly exited: Promise<number | string>;
  kill(signal: NodeJS.Signals): void;
}

/**
 * `env` is added to a minimal environment (PATH, HOME): the parent's DECOM_* and REDIS_URL do not leak in.
 * `built`: run the compiled CLI (`bin/decom.js`, after `npm run build`; see ensureBuilt) instead of the sources.
 */
export function spawnDecom(
  args: readonly string[],
  env: Readonly<Record<string, string>>,
  options: { built?: boolean } = {},
): DecomProcess {
  const root = resolve('.');
  const entry = options.built
    ? [resolve(root, 'bin/decom.js')]
    : ['--import', resolve(root, 'test/e2e/support/ts-register.mjs'), resolve(root, 'apps/cli/src/main.ts')];
  const child: ChildProcess = spawn(process.execPath, [...entry, ...args], {
    cwd: root,
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  const listeners = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    text += chunk.toString();
    listeners.forEach((l) => l());
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<number | string>((done) => child.once('exit', (code, signal) => done(code ?? signal ?? 'unknown')));
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  void exited.then(() => process.removeListener('exit', killOnExit));
  return {
    pid: child.pid ?? -1,
    output: () => text,
    exited,
    kill: (signal) => void child.kill(signal),
    waitFor(pattern, timeoutMs = 30_000) {
      return new Promise((resolveWait, reject) => {
        const check = () => {
          if (!pattern.test(text)) return;
          cleanup();
          resolveWait(text);
        };
        const timer = setTimeout(() => (cleanup(), reject(new Error(`no ${pattern} within ${timeoutMs} ms; output:\n${text}`))), timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        void exited.then((code) => {
          if (!listeners.has(check)) return;
          cleanup();
          reject(new Error(`decom ${args.join(' ')} exited (${code}) before ${pattern}; output:\n${text}`));
        });
        check();
      });
    },
  };
}
