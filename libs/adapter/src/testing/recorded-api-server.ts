import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One answer of the recorded-response server. `delayMs` holds the answer back (timeouts). */
export interface RecordedAnswer {
  readonly status: number;
  readonly body?: unknown;
  readonly delayMs?: number;
}

/** A request the server received; `body` is parsed JSON when it parses. */
export interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: unknown;
}

type Route = RecordedAnswer | RecordedAnswer[] | ((request: ReceivedRequest) => RecordedAnswer);

/**
 * A real `node:http` server answering with recorded HyperFleet API responses, for tests of the
 * API client and executor. It stands in for the HyperFleet API (being built separately); it is a
 * recorded-response server, not a mock of our code. Routes are `"METHOD /path"`; a list of answers
 * is served in order (the last one repeats); unknown routes get 404 `HYPERFLEET-NTF-000`.
 */
export class RecordedApiServer {
  readonly received: ReceivedRequest[] = [];
  private readonly routes = new Map<string, Route>();
  private readonly served = new Map<string, number>();
  private server: Server | undefined;
  private baseUrl = '';

  get url(): string {
    return this.baseUrl;
  }

  /** Sets (or replaces) the answer(s) of `"METHOD /path"`. */
  on(route: string, answer: Route): this {
    this.routes.set(route, answer);
    this.served.set(route, 0);
    return this;
  }

  /** Requests received for a method (and optional path). */
  requests(method: string, path?: string): ReceivedRequest[] {
    return this.received.filter((r) => r.method === method && (path === undefined || r.path === path));
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: unknown = text.length > 0 ? text : undefined;
    try {
      body = text.length > 0 ? JSON.parse(text) : undefined;
    } catch {
      // keep the raw text
    }
    const path = (req.url ?? '/').split('?')[0] as string;
    const request: ReceivedRequest = { method: req.method ?? 'GET', path, headers: req.headers, body };
    this.received.push(request);
    const key = `${request.method} ${path}`;
    const route = this.routes.get(key);
    let answer: RecordedAnswer;
    if (!route) {
      answer = {
        status: 404,
        body: {
          type: 'https://api.hyperfleet.io/errors/not-found',
          title: 'Endpoint Not Found',
          status: 404,
          code: 'HYPERFLEET-NTF-000',
          detail: `no route ${key}`,
        },
      };
    } else if (typeof route === 'function') {
      answer = route(request);
    } else if (Array.isArray(route)) {
      const index = this.served.get(key) ?? 0;
      this.served.set(key, index + 1);
      answer = route[Math.min(index, route.length - 1)] as RecordedAnswer;
    } else {
      answer = route;
    }
    if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
    if (res.destroyed) return;
    const payload = answer.body === undefined ? '' : JSON.stringify(answer.body);
    res.writeHead(answer.status, payload ? { 'content-type': answer.status >= 400 ? 'application/problem+json' : 'application/json' } : {});
    res.end(payload);
  }
}
