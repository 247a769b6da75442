/**
 * The API port while the process waits for a dependency at start (PostgreSQL, Redis): a plain `node:http`
 * listener, because the Nest application needs its stores before it can be built. It answers
 * - `GET|HEAD /healthz` → 200 `{"status":"ok"}` (the process is alive: no restart needed);
 * - `GET|HEAD /readyz` → 503 with the start-up report (`checks.startup` names the dependency and since when);
 * - anything else → 503 problem details `HYPERFLEET-SVC-001` with `Retry-After`: nothing was read or applied.
 * Once the dependencies answer, the engine closes the gate and the API listens on the same port.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PROBLEM_TYPE_BASE, Problems } from '../problem-details/problem.js';
import type { StartupState } from '@decom/health';
import { traceRequestId } from './request-observability.js';

export interface StartupGate {
  /** The port it holds (the configured one, or the one chosen for port 0): the API listens there next. */
  readonly port: number;
  /** Stops answering and drops open connections, so the API can take the port. */
  close(): Promise<void>;
}

/**
 * Listens on `port` (0 = any free port) at `host`.
 * @throws the listen error (EADDRINUSE when the port is taken) for the caller to name the port.
 */
export async function openStartupGate(state: StartupState, port: number, host: string): Promise<StartupGate> {
  const server: Server = createServer((request, response) => answer(state, request, response));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function answer(state: StartupState, request: IncomingMessage, response: ServerResponse): void {
  const traceId = traceRequestId(request);
  const path = (request.url ?? '/').split('?')[0]!;
  const isRead = request.method === 'GET' || request.method === 'HEAD';
  const send = (status: number, contentType: string, body: unknown, headers: Record<string, string> = {}) => {
    const text = JSON.stringify(body);
    response.writeHead(status, {
      'content-type': contentType,
      'content-length': Buffer.byteLength(text),
      'x-request-id': traceId,
      ...headers,
    });
    response.end(request.method === 'HEAD' ? undefined : text);
  };
  if (isRead && path === '/healthz') return send(200, 'application/json; charset=utf-8', { status: 'ok' });
  if (isRead && path === '/readyz') return send(503, 'application/json; charset=utf-8', state.report(), { 'cache-control': 'no-store' });
  const problem = Problems.unavailable(`Decom is not serving yet: ${state.describe()}; retry later`);
  // Drain an upload so the client reads the answer instead of a reset connection.
  request.resume();
  send(
    problem.status,
    'application/problem+json',
    {
      type: PROBLEM_TYPE_BASE + problem.typeSlug,
      title: problem.title,
      status: problem.status,
      detail: problem.message,
      code: problem.code,
      timestamp: new Date().toISOString(),
      instance: path.slice(0, 2048),
      trace_id: traceId,
    },
    { ...problem.headers },
  );
}
