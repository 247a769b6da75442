import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

/** What `HttpHyperfleetApiClient` reads of an answer: the part of `Response` it uses. */
export interface NodeHttpResponse {
  readonly ok: boolean;
  readonly status: number;
  text(): Promise<string>;
}

/** What `HttpHyperfleetApiClient` sends: the part of `RequestInit` it fills in. */
export interface NodeHttpInit {
  readonly method?: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
  readonly signal?: AbortSignal;
}

// One keep-alive pool per protocol for the process, like the global fetch's dispatcher.
const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };
/** Redirects followed, as fetch's default `redirect: 'follow'` does (it stops at 20 too). */
const MAX_REDIRECTS = 20;

/**
 * The `fetch` subset the HyperFleet API client uses, on `node:http`/`node:https` with keep-alive agents
 * (issue #16). Why not the global `fetch`: an adapter run makes a handful of API calls, and Node's fetch
 * (undici with WHATWG streams) cost about 200 µs of CPU per call against 30 µs for `node:http` on the
 * same server (measured on 2 cores): in the embedded engine, where API, adapters and Kubernetes share
 * one process, that was a sixth of its CPU in a bulk deletion. Same observable behaviour as the client
 * relied on: the whole body as text; redirects followed (303 and POST's 301/302 become GET); an aborted
 * signal rejects with the signal's reason (`AbortSignal.timeout`'s `TimeoutError`); a failed connection
 * rejects with `TypeError('fetch failed')` whose `cause` is the socket error, as fetch does.
 */
export async function nodeHttpFetch(url: string | URL, init: NodeHttpInit = {}): Promise<NodeHttpResponse> {
  let target = new URL(url);
  let method = (init.method ?? 'GET').toUpperCase();
  let body = init.body;
  for (let redirects = 0; ; redirects++) {
    const answer = await send(target, method, init.headers ?? {}, body, init.signal);
    const location = answer.headers.location;
    if (![301, 302, 303, 307, 308].includes(answer.status) || !location || redirects >= MAX_REDIRECTS) return answer;
    if (answer.status === 303 || ((answer.status === 301 || answer.status === 302) && method === 'POST')) {
      method = 'GET';
      body = undefined;
    }
    target = new URL(location, target);
  }
}

interface Answer extends NodeHttpResponse {
  readonly headers: IncomingMessage['headers'];
}

/**
 * One request. A keep-alive socket the server closed while idle fails the next request sent on it with
 * ECONNRESET before any answer: that request is sent once more on a fresh socket (the server never saw
 * it), the pattern Node's documentation gives for `request.reusedSocket`.
 */
async function send(url: URL, method: string, headers: Record<string, string>, body: string | undefined, signal: AbortSignal | undefined): Promise<Answer> {
  try {
    return await sendOnce(url, method, headers, body, signal);
  } catch (error) {
    if (!(error instanceof StaleSocket)) throw error;
    return sendOnce(url, method, headers, body, signal).catch((again: unknown) => {
      throw again instanceof StaleSocket ? new TypeError('fetch failed', { cause: again.cause }) : again;
    });
  }
}

class StaleSocket extends Error {}

function sendOnce(url: URL, method: string, headers: Record<string, string>, body: string | undefined, signal: AbortSignal | undefined): Promise<Answer> {
  return new Promise<Answer>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const https = url.protocol === 'https:';
    const outgoing = { ...headers, ...(body !== undefined && { 'content-length': String(Buffer.byteLength(body)) }) };
    let answered = false;
    const request = (https ? httpsRequest : httpRequest)(url, { method, headers: outgoing, agent: https ? agents.https : agents.http }, (response) => {
      answered = true;
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.once('error', fail);
      response.once('end', () => {
        signal?.removeEventListener('abort', abort);
        const status = response.statusCode ?? 0;
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ ok: status >= 200 && status < 300, status, headers: response.headers, text: async () => text });
      });
    });
    function fail(error: Error) {
      signal?.removeEventListener('abort', abort);
      if (signal?.aborted) return reject(signal.reason);
      const stale = !answered && request.reusedSocket && (error as NodeJS.ErrnoException).code === 'ECONNRESET';
      reject(stale ? new StaleSocket('stale keep-alive socket', { cause: error }) : new TypeError('fetch failed', { cause: error }));
    }
    function abort() {
      request.destroy(signal!.reason instanceof Error ? signal!.reason : new Error('aborted'));
    }
    signal?.addEventListener('abort', abort, { once: true });
    request.once('error', fail);
    request.end(body);
  });
}
