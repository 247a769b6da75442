/**
 * A local Maestro-compatible server: Maestro's REST API for resource bundles and consumers
 * (`/api/maestro/v1/...`, as in maestro's openapi.yaml) over an in-memory store, a simulated work
 * agent (applies works, reports status and status feedback, confirms deletions asynchronously),
 * and the ManifestWork spec events a source client publishes, over gRPC (`CloudEventService`, as
 * real Maestro) and over the CloudEvents HTTP binding (`POST /cloudevents`, Decom's fallback).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type CloudEventV1, HTTP, ValidationError } from 'cloudevents';
import { BundleStore } from './bundle-store.js';
import { decodeSpecEvent, type SpecRequest } from './cloudevent-intake.js';
import { GrpcEndpoint, PUBLISH_PATH } from './grpc-endpoint.js';
import type { LocalMaestro, LocalMaestroOptions, ManifestSelector } from './local-maestro.js';
import { errorBody, MaestroError } from './maestro-errors.js';
import { MaestroFaults } from './maestro-faults.js';
import type { RecordedMaestroRequest } from './request-log.js';
import type { ResourceBundle, StatusFeedbackValue } from './resource-bundle.js';
import { parseSearch, SearchSyntaxError } from './search-filter.js';
import { feedbackKey, WorkAgent } from './work-agent.js';
import { workId } from './work-id.js';

const API = '/api/maestro/v1';
const CLOUDEVENTS_PATH = '/cloudevents';
const MAX_PAGE_SIZE = 400;

interface Answer {
  readonly status: number;
  readonly body?: unknown;
  readonly action?: string;
}

class LocalMaestroServer implements LocalMaestro {
  readonly cloudEventsPath = CLOUDEVENTS_PATH;
  readonly faults = new MaestroFaults();
  private readonly store: BundleStore;
  private readonly agent: WorkAgent;
  private readonly consumers = new Map<string, { id: string; name: string; created_at: string }>();
  private readonly log: RecordedMaestroRequest[] = [];
  private readonly server: Server;
  private readonly grpc: GrpcEndpoint;
  private port = 0;

  constructor(
    private readonly options: LocalMaestroOptions,
    private readonly now: () => Date,
  ) {
    this.grpc = new GrpcEndpoint({
      receive: (event) => this.applySpec(decodeSpecEvent(event)),
      record: (action, status) =>
        this.log.push({ seq: this.log.length + 1, method: 'GRPC', path: PUBLISH_PATH, query: {}, ...(action && { action }), status }),
      fault: () => this.faults.take('GRPC', PUBLISH_PATH),
    });
    this.store = new BundleStore(now, (bundle, removed) => this.grpc.broadcast(bundle, removed));
    this.agent = new WorkAgent(this.store, options.agentDelayMs ?? 0, now);
    for (const name of options.consumers ?? ['cluster1']) this.registerConsumer(name);
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        // Last resort: a bug must answer 500, not hang the client.
        if (!res.headersSent) send(res, { status: 500, body: errorBody(500, (error as Error).message) });
        else res.destroy();
      });
    });
  }

  get url(): string {
    return `http://${this.options.host ?? '127.0.0.1'}:${this.port}`;
  }

  subscribers(source: string): number {
    return this.grpc.subscribersOf(source);
  }

  get grpcAddress(): string {
    return `${this.options.host ?? '127.0.0.1'}:${this.grpc.port}`;
  }

  get requests(): readonly RecordedMaestroRequest[] {
    return this.log;
  }

  async listen(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(this.options.port ?? 0, this.options.host ?? '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    await this.grpc.listen(this.options.host ?? '127.0.0.1');
    return this;
  }

  clearRequests(): void {
    this.log.length = 0;
  }

  registerConsumer(name: string): void {
    if (!this.consumers.has(name))
      this.consumers.set(name, { id: workId('consumer', name, name), name, created_at: this.now().toISOString() });
  }

  peek(source: string, consumer: string, workName: string): ResourceBundle | undefined {
    const bundle = this.store.get(workId(source, consumer, workName));
    return bundle && structuredClone(bundle);
  }

  bundles(): ResourceBundle[] {
    return this.store.list().map((b) => structuredClone(b));
  }

  setStatusFeedback(
    source: string,
    consumer: string,
    workName: string,
    manifest: ManifestSelector,
    values: readonly StatusFeedbackValue[],
  ): void {
    const id = workId(source, consumer, workName);
    const bundle = this.store.get(id);
    if (!bundle) throw new Error(`no work ${consumer}/${workName} from source ${source}`);
    const found = bundle.manifests.some((m) => {
      const meta = (m['metadata'] ?? {}) as { name?: string; namespace?: string };
      return m['kind'] === manifest.kind && meta.name === manifest.name && (meta.namespace ?? '') === (manifest.namespace ?? '');
    });
    if (!found) throw new Error(`work ${workName} has no ${manifest.kind} ${manifest.namespace ?? ''}/${manifest.name}`);
    this.agent.feedback.set(feedbackKey(id, manifest.kind, manifest.namespace ?? '', manifest.name), values);
    this.agent.refresh(id);
  }

  pauseAgent(): void {
    this.agent.pause();
  }

  resumeAgent(): void {
    this.agent.resume();
  }

  settle(): Promise<void> {
    return this.agent.settle();
  }

  async close(): Promise<void> {
    this.agent.stop();
    this.grpc.close();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://maestro.local');
    const method = (req.method ?? 'GET').toUpperCase();
    const body = await readBody(req);
    const fault = this.faults.take(method, url.pathname);
    let answer: Answer;
    if (fault) answer = { status: fault.status, body: errorBody(fault.status, fault.reason ?? 'injected fault') };
    else {
      try {
        answer = this.route(method, url, req.headers, body);
      } catch (error) {
        if (error instanceof MaestroError) answer = { status: error.status, body: errorBody(error.status, error.reason) };
        else if (error instanceof SearchSyntaxError || error instanceof ValidationError)
          answer = { status: 400, body: errorBody(400, error.message) };
        else throw error;
      }
    }
    this.log.push({
      seq: this.log.length + 1,
      method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      ...(answer.action && { action: answer.action }),
      status: answer.status,
    });
    send(res, answer);
  }

  private route(method: string, url: URL, headers: IncomingMessage['headers'], body: string): Answer {
    const path = url.pathname.replace(/\/+$/, '');
    if (path === CLOUDEVENTS_PATH && method === 'POST') return this.receiveEvent(headers, body);
    if (path === `${API}/resource-bundles` && method === 'GET') return this.listBundles(url.searchParams);
    const bundleMatch = new RegExp(`^${API}/resource-bundles/([^/]+)$`).exec(path);
    if (bundleMatch) {
      const id = decodeURIComponent(bundleMatch[1] as string);
      if (method === 'GET') {
        const bundle = this.store.get(id);
        if (!bundle) throw new MaestroError(404, `resource bundle with id='${id}' not found`);
        return { status: 200, body: bundle };
      }
      if (method === 'DELETE') {
        this.store.markDeleting(id);
        this.agent.delete(id);
        return { status: 204 };
      }
    }
    if (path === `${API}/consumers` && method === 'GET') {
      const items = [...this.consumers.values()].map((c) => ({ ...c, kind: 'Consumer', href: `${API}/consumers/${c.id}` }));
      return { status: 200, body: { kind: 'ConsumerList', page: 1, size: items.length, total: items.length, items } };
    }
    if (path === `${API}/consumers` && method === 'POST') {
      const name = (parseJson(body) as { name?: unknown } | undefined)?.name;
      if (typeof name !== 'string' || name === '') throw new MaestroError(400, 'consumer name is required');
      if (this.consumers.has(name)) throw new MaestroError(409, `consumer ${name} already exists`);
      this.registerConsumer(name);
      return { status: 201, body: { ...this.consumers.get(name), kind: 'Consumer' } };
    }
    throw new MaestroError(404, `no route ${method} ${url.pathname}`);
  }

  private listBundles(params: URLSearchParams): Answer {
    const page = positiveInt(params.get('page'), 1, 'page');
    const size = Math.min(positiveInt(params.get('size'), 100, 'size'), MAX_PAGE_SIZE);
    const matches = this.store.list().filter(parseSearch(params.get('search') ?? ''));
    const items = matches.slice((page - 1) * size, page * size);
    return { status: 200, body: { kind: 'ResourceBundleList', page, size: items.length, total: matches.length, items } };
  }

  private receiveEvent(headers: IncomingMessage['headers'], body: string): Answer {
    const event = HTTP.toEvent({ headers: headers as Record<string, string>, body });
    if (Array.isArray(event)) throw new MaestroError(400, 'batched cloudevents are not supported');
    return { status: 204, action: this.applySpec(decodeSpecEvent(event as CloudEventV1<unknown>)) };
  }

  /** Applies a decoded spec event (either binding). @returns its action. @throws MaestroError. */
  private applySpec(request: SpecRequest): string {
    const { spec } = request;
    if (!this.consumers.has(spec.consumer)) throw new MaestroError(400, `consumer '${spec.consumer}' is not registered`);
    if (request.action === 'create_request') {
      this.store.create(spec);
      this.agent.apply(spec.id);
    } else if (request.action === 'update_request') {
      this.store.update(spec, request.version);
      this.agent.apply(spec.id);
    } else {
      this.store.markDeleting(spec.id);
      this.agent.delete(spec.id);
    }
    return request.action;
  }
}

function positiveInt(raw: string | null, fallback: number, name: string): number {
  if (raw === null || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new MaestroError(400, `${name} must be a positive integer, got ${JSON.stringify(raw)}`);
  return value;
}

function parseJson(text: string): unknown {
  try {
    return text.length > 0 ? JSON.parse(text) : undefined;
  } catch {
    throw new MaestroError(400, 'body is not JSON');
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function send(res: ServerResponse, answer: Answer): void {
  const payload = answer.body === undefined ? '' : JSON.stringify(answer.body);
  res.writeHead(answer.status, payload ? { 'content-type': 'application/json' } : {});
  res.end(payload);
}

/**
 * Starts a local Maestro-compatible server on a free port (by default). Close it when done.
 * @see docs/adapter-maestro.md.
 */
export async function startLocalMaestro(options: LocalMaestroOptions = {}): Promise<LocalMaestro> {
  return new LocalMaestroServer(options, options.now ?? (() => new Date())).listen();
}
