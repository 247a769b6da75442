import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from './free-port.js';

/** A Redis server for integration tests; isolate tests by key prefix or queue name. */
export interface RedisForTests {
  /** `redis://127.0.0.1:<port>` (or `REDIS_URL`). */
  readonly url: string;
  /** Stops a server we started and deletes its folder; for `REDIS_URL`, deletes the keys under every `prefix()` drawn. */
  stop(): Promise<void>;
  /**
   * A fresh key prefix (`decom-<label>-<uuid>`) for this test's queues and keys; `stop()` deletes its keys,
   * so a shared `REDIS_URL` server is left as it was found.
   */
  prefix(label?: string): string;
}

/**
 * Uses `REDIS_URL` when set; otherwise starts `redis-server` on a random 127.0.0.1 port with persistence off
 * (`--save "" --appendonly no`) in a temp folder, and resolves once it accepts connections.
 * @throws Error saying to `apt-get install redis-server` when the binary is missing.
 */
export async function useRedis(): Promise<RedisForTests> {
  // Test infrastructure, not app config: libs/config is for the app, CI sets this for the tests.
  const url = process.env['REDIS_URL'];
  if (!url) return useThrowAwayRedis();
  const drawn: string[] = [];
  return {
    url,
    prefix: (label = 'test') => {
      const prefix = `decom-${label}-${randomUUID()}`;
      drawn.push(prefix);
      return prefix;
    },
    stop: async () => {
      for (const prefix of drawn.splice(0)) await dropRedisPrefix(url, prefix);
    },
  };
}

/**
 * Always starts a private `redis-server` (never `REDIS_URL`): for tests that FLUSHALL, stop or restart
 * Redis, which must never touch a server someone else uses. `extraArgs` go to its command line
 * (e.g. `['--maxmemory-policy', 'allkeys-lru']`).
 * @throws Error saying to `apt-get install redis-server` when the binary is missing.
 */
export async function useThrowAwayRedis(extraArgs: readonly string[] = []): Promise<RedisForTests> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startServer(await freePort(), extraArgs);
    } catch (error) {
      // A lost port race is worth a retry; a missing binary is not.
      if (attempt === 3 || (error as NodeJS.ErrnoException).code === 'ENOENT') throw explain(error);
    }
  }
}

/**
 * A private `redis-server` on `port` (never `REDIS_URL`): for tests that start a process against a port
 * where Redis is not running yet, then start Redis there.
 */
export async function useThrowAwayRedisOn(port: number): Promise<RedisForTests> {
  try {
    return await startServer(port);
  } catch (error) {
    throw explain(error);
  }
}

/** A private Redis a test may restart (never `REDIS_URL`). */
export interface RestartableRedis extends RedisForTests {
  /** SIGKILL, then a new server on the same port, without data (like a restart without persistence). */
  restart(downMs?: number): Promise<void>;
}

/** A private `redis-server` that `restart()` kills and starts again on the same port. */
export async function useRestartableRedis(): Promise<RestartableRedis> {
  let server = await useThrowAwayRedis();
  const port = Number(new URL(server.url).port);
  return {
    url: server.url,
    async restart(downMs = 0) {
      await server.stop();
      await new Promise((resolve) => setTimeout(resolve, downMs));
      for (let attempt = 1; ; attempt += 1) {
        try {
          server = await startServer(port);
          return;
        } catch (error) {
          if (attempt === 5) throw explain(error);
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      }
    },
    stop: () => server.stop(),
    prefix: freshPrefix,
  };
}

/** A private server is removed whole by `stop()`, so its prefixes need no bookkeeping. */
const freshPrefix = (label = 'test') => `decom-${label}-${randomUUID()}`;

async function startServer(port: number, extraArgs: readonly string[] = []): Promise<RedisForTests> {
  const folder = mkdtempSync(join(tmpdir(), 'decom-redis-'));
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', folder, ...extraArgs];
  const server = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const onExit = () => server.kill('SIGKILL');
  process.once('exit', onExit);
  const cleanUp = () => {
    process.removeListener('exit', onExit);
    rmSync(folder, { recursive: true, force: true });
  };
  try {
    await new Promise<void>((resolve, reject) => {
      let output = '';
      const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${output}`)), 10_000);
      server.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
      server.once('error', (error) => (clearTimeout(timer), reject(error)));
      server.once('exit', (code) => (clearTimeout(timer), reject(new Error(`redis-server exited (${code}):\n${output}`))));
    });
  } catch (error) {
    if (server.exitCode === null && server.pid !== undefined) server.kill('SIGKILL');
    cleanUp();
    throw error;
  }
  server.stdout.resume();
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      if (server.exitCode === null) {
        const exited = once(server, 'exit');
        server.kill('SIGTERM');
        await exited;
      }
      cleanUp();
    },
    prefix: freshPrefix,
  };
}

function explain(error: unknown): unknown {
  if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return error;
  return new Error('redis-server not found: run `apt-get install redis-server`, or set REDIS_URL');
}

/**
 * Deletes the keys under `prefix` (a test's or bench's own BullMQ queues) and no other key: `REDIS_URL`
 * may be a shared server, which is never flushed.
 */
export async function dropRedisPrefix(url: string, prefix: string): Promise<void> {
  const client = new Redis(url);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      if (keys.length > 0) await client.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    await client.quit().catch(() => undefined);
  }
}
