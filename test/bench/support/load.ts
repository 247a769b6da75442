/**
 * HTTP load from autocannon (pinned devDependency), run in the bench process while the server under test
 * is a separate process: `connections` keep-alive connections, one request in flight on each, for
 * `seconds`. Rates count 2xx answers only; any error, timeout or non-2xx answer fails the measure (a server
 * that answers 500 quickly must not look fast). A server too slow to answer anything within the run gets
 * rate 0 and latencies `Infinity` (at least the run's length), not an error: that is a figure too.
 */
import autocannon from 'autocannon';

export interface LoadResult {
  /** 2xx answers per second over the run. */
  readonly rps: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  readonly ok: number;
  /** Response body bytes of the run / answers, for the "same body size" check of a ceiling. */
  readonly bytesPerAnswer: number;
}

export interface LoadOptions {
  readonly url: string;
  readonly connections: number;
  readonly seconds: number;
  readonly method?: 'GET' | 'POST';
  readonly headers?: Record<string, string>;
  /** A new body per request (e.g. a unique name per create). */
  readonly body?: () => string;
  /** Stop after this many requests instead of at `seconds` (seeding). */
  readonly amount?: number;
  /** Answers other than 2xx that are acceptable (none by default). */
  readonly allowNon2xx?: boolean;
}

/** @throws Error naming the URL when any request errored, timed out or answered outside 2xx. */
export async function load(options: LoadOptions): Promise<LoadResult> {
  const { body } = options;
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    ...(options.amount !== undefined ? { amount: options.amount } : { duration: options.seconds }),
    method: options.method ?? 'GET',
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...options.headers },
    timeout: 30,
    ...(body ? { requests: [{ setupRequest: (request: Record<string, unknown>) => ({ ...request, body: body() }) }] } : {}),
  } as autocannon.Options);
  const ok = result['2xx'];
  const bad = result.errors + result.timeouts + (options.allowNon2xx ? 0 : result.non2xx);
  if (bad > 0) {
    throw new Error(
      `bench: load on ${options.method ?? 'GET'} ${options.url}: ${ok} ok, ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  }
  const none = ok === 0;
  return {
    rps: ok / result.duration,
    p50Ms: none ? Infinity : result.latency.p50,
    p99Ms: none ? Infinity : result.latency.p99,
    maxMs: none ? Infinity : result.latency.max,
    ok,
    bytesPerAnswer: result.throughput.total / Math.max(1, result.requests.total),
  };
}

/**
 * Waits until `url` answers within `fastMs` again: requests a run left in the server's queue (autocannon
 * closes its connections at the end; the server still works off what it accepted) must not run during the
 * next measure. Gives up silently after `timeoutMs`.
 */
export async function drain(url: string, fastMs = 50, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const started = performance.now();
    try {
      await (await fetch(url)).arrayBuffer();
    } catch {
      // Not answering at all: nothing queued to wait for.
      return;
    }
    if (performance.now() - started < fastMs) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}
