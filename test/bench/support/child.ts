/**
 * The processes a benchmark runs beside itself: the `decom` CLI (`node bin/decom.js start|api|worker`, the
 * compiled build), the bundled Kubernetes server on its own, the bare Fastify route. Each is a separate OS
 * process so the load generator in the bench process never shares its event loop. Its stdout and stderr go
 * to a log file (the engine's access log is on, as shipped; a pipe read by the bench would cost the bench
 * CPU), the IPC channel answers probes (probe-preload.ts: RSS, event-loop delay), and with `profile` the
 * process runs under `node --cpu-prof` and its profile is summarised when it stops (cpu-profile.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, closeSync, readFileSync, readdirSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ProbeAnswer } from './probe-preload.js';
import { topSelfTime, type SelfTimeRow } from './cpu-profile.js';

const here = dirname(fileURLToPath(import.meta.url));
/** The repository root (dist/test/bench/support → four levels up). */
export const repoRoot = resolve(here, '../../../..');
const preload = join(here, 'probe-preload.js');

export interface ChildOptions {
  /** Shown in errors and profile summaries, e.g. `decom start (P1)`. */
  readonly label: string;
  /** Folder for the log file (and the profile). */
  readonly dir: string;
  /** Added to a minimal environment (PATH, HOME): the bench's own DECOM_*, REDIS_URL do not leak in. */
  readonly env?: Readonly<Record<string, string>>;
  /** Run under `node --cpu-prof`; `stop()` then returns the top self-time functions. */
  readonly profile?: boolean;
}

export interface BenchChild {
  readonly label: string;
  readonly pid: number;
  readonly logFile: string;
  /** The log so far (the last `maxChars`). */
  log(maxChars?: number): string;
  /** Resolves once the log matches `pattern` (polling the file), with the match; rejects on exit or timeout. */
  waitForLog(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** RSS and event-loop delay of the process; `reset` starts a new delay window. */
  probe(reset?: boolean): Promise<ProbeAnswer>;
  /** SIGTERM (the CLI closes cleanly and writes its profile), SIGKILL after `graceMs`. Idempotent. */
  stop(graceMs?: number): Promise<{ profile?: readonly SelfTimeRow[] }>;
  readonly exited: Promise<number | string>;
}

const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});
// A bench stopped from outside (Ctrl-C, CI's timeout) takes its children along: exit runs the handler above
// (and those of the throw-away Redis/PostgreSQL servers).
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

/** Spawns `node [--cpu-prof] --import probe-preload.js <args>` in the repository root. */
export function spawnNode(args: readonly string[], options: ChildOptions): BenchChild {
  mkdirSync(options.dir, { recursive: true });
  const slug = options.label
    .replace(/[^a-z0-9]+/gi, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase();
  const logFile = join(options.dir, `${slug}-${process.hrtime.bigint()}.log`);
  const profileDir = join(options.dir, `${slug}-profile-${process.hrtime.bigint()}`);
  const fd = openSync(logFile, 'a');
  const child = spawn(
    process.execPath,
    [...(options.profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []), '--import', preload, ...args],
    {
      cwd: repoRoot,
      env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', ...options.env },
      stdio: ['ignore', fd, fd, 'ipc'],
    },
  );
  closeSync(fd);
  live.add(child);
  const exited = new Promise<number | string>((done) =>
    child.once('exit', (code, signal) => (live.delete(child), done(code ?? signal ?? 'unknown'))),
  );
  let exitValue: number | string | undefined;
  void exited.then((value) => (exitValue = value));
  const log = (maxChars = 4000) => {
    try {
      const text = readFileSync(logFile, 'utf8');
      return text.length > maxChars ? `…${text.slice(-maxChars)}` : text;
    } catch {
      return '';
    }
  };
  let nextProbe = 1;
  const pending = new Map<number, (answer: ProbeAnswer) => void>();
  child.on('message', (message: ProbeAnswer) => pending.get(message.probe)?.(message));
  let stopping: Promise<{ profile?: readonly SelfTimeRow[] }> | undefined;
  return {
    label: options.label,
    pid: child.pid ?? -1,
    logFile,
    log,
    exited,
    async waitForLog(pattern, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const match = readFileSync(logFile, 'utf8').match(pattern);
        if (match) return match;
        if (exitValue !== undefined) throw new Error(`${options.label} exited (${exitValue}) before logging ${pattern}:\n${log()}`);
        if (Date.now() > deadline) throw new Error(`${options.label}: no ${pattern} in its log within ${timeoutMs} ms:\n${log()}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    probe(reset = false) {
      const id = nextProbe++;
      return new Promise<ProbeAnswer>((ok, fail) => {
        const timer = setTimeout(() => (pending.delete(id), fail(new Error(`${options.label}: no probe answer within 10 s`))), 10_000);
        pending.set(id, (answer) => (clearTimeout(timer), pending.delete(id), ok(answer)));
        if (!child.connected)
          return (
            clearTimeout(timer),
            pending.delete(id),
            fail(new Error(`${options.label}: not running (${exitValue ?? 'no IPC channel'})`))
          );
        child.send({ probe: id, reset });
      });
    },
    stop(graceMs = options.profile ? 30_000 : 8_000) {
      stopping ??= (async () => {
        if (exitValue === undefined) {
          child.kill('SIGTERM');
          const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
          await exited;
          clearTimeout(timer);
        }
        if (!options.profile) return {};
        const files = (() => {
          try {
            return readdirSync(profileDir).filter((f) => f.endsWith('.cpuprofile'));
          } catch {
            return [];
          }
        })();
        if (files.length === 0) return { profile: [] };
        return { profile: topSelfTime(JSON.parse(readFileSync(join(profileDir, files.sort().at(-1)!), 'utf8')), 10) };
      })();
      return stopping;
    },
  };
}

/** Resolves once `url` answers 200 (polling every 100 ms); rejects when `child` exits first or on timeout. */
export async function waitForHttp(child: BenchChild, url: string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited: number | string | undefined;
  void child.exited.then((value) => (exited = value));
  for (;;) {
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.status === 200) return;
    } catch {
      // Not listening yet.
    }
    if (exited !== undefined) throw new Error(`${child.label} exited (${exited}) before ${url} answered:\n${child.log()}`);
    if (Date.now() > deadline) throw new Error(`${child.label}: ${url} did not answer 200 within ${timeoutMs} ms:\n${child.log()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
