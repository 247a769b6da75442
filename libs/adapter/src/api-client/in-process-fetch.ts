import type { FetchLike } from './hyperfleet-api.client.js';
import { undiciFetch } from './undici-fetch.js';

/**
 * One request through a server's whole pipeline without a socket: Fastify's `inject` (light-my-request) has
 * this shape. `url` is the path and query; `remoteAddress` is what the server sees as the peer.
 */
export type InjectRequest = (request: {
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly payload?: string;
  readonly remoteAddress: string;
}) => Promise<{ readonly statusCode: number; readonly body: string }>;

/**
 * The API client's `fetch` for adapters hosted in the process that serves the API (`decom start`): requests to
 * `origin` (the engine's own API URL) enter the API's request pipeline through `inject` — authentication of the
 * adapter's token, validation, the command bus, the same status codes and bodies — without a loopback socket,
 * which cost about a third of a deletion's CPU when both ends of every call lived in one process. The peer is
 * `127.0.0.1` and the `Host` header the origin's, as over loopback. Any other URL (a deployment config naming
 * another API) goes to `fallback` over HTTP.
 *
 * Differences from HTTP, none of which the client relies on: redirects are not followed (the API answers none to
 * adapters), and an aborted `signal` (the client's per-request timeout) rejects with its reason while the
 * request itself runs to its end in the server, as a request whose client hung up does.
 */
export function inProcessFetch(origin: string, inject: InjectRequest, fallback: FetchLike = undiciFetch): FetchLike {
  const own = new URL(origin).origin;
  return async (url, init) => {
    const target = new URL(url);
    if (target.origin !== own) return fallback(url, init);
    init.signal.throwIfAborted();
    const answer = inject({
      method: init.method,
      url: `${target.pathname}${target.search}`,
      headers: { ...withoutHost(init.headers), host: target.host },
      ...(init.body !== undefined && { payload: init.body }),
      remoteAddress: '127.0.0.1',
    });
    const { statusCode, body } = await untilAborted(answer, init.signal);
    return { ok: statusCode >= 200 && statusCode < 300, status: statusCode, text: async () => body };
  };
}

function withoutHost(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'host'));
}

function untilAborted<T>(answer: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    answer.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(new TypeError('fetch failed', { cause: error }));
      },
    );
  });
}
