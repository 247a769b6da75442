/**
 * The local Kubernetes API server: a `node:http` server speaking the Kubernetes REST API over an
 * in-memory store, with a garbage collector and namespace controller running beside it, a request
 * log and fault injection for tests. Used by tests and by the embedded profile when no KUBECONFIG is set.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { KubeConfig } from '@kubernetes/client-node';
import type { LocalKube, LocalKubeOptions } from './local-kube.js';
import { scopeOf, type ApiContext } from './api-context.js';
import { ApiHandler, verbOf, type ApiResponse } from './api-handler.js';
import { ControllerLoop, delayDrawer } from './controller-loop.js';
import { EventRecorder } from './events.js';
import { Faults, type FaultSpec } from './faults.js';
import { GarbageCollector } from './garbage-collector.js';
import { fromRegistration, KindRegistry, type KindDef, type KindRegistration } from './kinds.js';
import { kubeConfigFor, kubeconfigYamlFor } from './kubeconfig.js';
import { NamespaceController } from './namespace-controller.js';
import { ObjectStore, type StoreChange } from './object-store.js';
import { RequestLog, type RecordedKubeRequest, type RequestFilter } from './request-log.js';
import { ResourceOperations } from './resource-operations.js';
import { resolveRoute } from './router.js';
import { injected, internalError, KubeStatusError, requestEntityTooLarge } from './status-errors.js';
import { DEFAULT_WATCH_SETTINGS, WatchHub } from './watch.js';

/** Namespaces a fresh cluster has. */
const INITIAL_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

/** kube-apiserver's request body limit (`--max-request-body-bytes`, default 3 MiB). */
const MAX_BODY_BYTES = 3 * 1024 * 1024;
/**
 * How long a client may take to send a whole request: kube-apiserver's `--request-timeout` default, one
 * minute. Node's own default (five minutes) would hold a half-sent body's socket open five times longer.
 */
const REQUEST_TIMEOUT_MS = 60_000;

class LocalKubeServer implements LocalKube {
  readonly faults: Faults = new Faults();
  private readonly ctx: ApiContext;
  private readonly ops: ResourceOperations;
  private readonly api: ApiHandler;
  private readonly log: RequestLog;
  private readonly controllers: ControllerLoop;
  private readonly watches: WatchHub;
  private readonly server: Server;
  private port: number;
  private readonly host: string;

  constructor(options: LocalKubeOptions) {
    const now = options.now ?? (() => new Date());
    const base = {
      store: new ObjectStore(now, 1000, options.watchWindow ?? 10_000, options.historyLimit),
      kinds: new KindRegistry(),
      now,
      newUid: options.newUid ?? randomUUID,
    };
    this.ctx = { ...base, events: new EventRecorder(base, options.maxEvents) };
    this.watches = new WatchHub(this.ctx, {
      bookmarkIntervalMs: options.watchBookmarkIntervalMs ?? DEFAULT_WATCH_SETTINGS.bookmarkIntervalMs,
      minRequestTimeoutSeconds: options.minRequestTimeoutSeconds ?? DEFAULT_WATCH_SETTINGS.minRequestTimeoutSeconds,
      futureVersionWaitMs: DEFAULT_WATCH_SETTINGS.futureVersionWaitMs,
    });
    this.ops = new ResourceOperations(this.ctx);
    this.api = new ApiHandler(this.ctx, this.ops);
    this.log = new RequestLog(now, options.historyLimit);
    this.controllers = new ControllerLoop(
      this.ctx.store,
      [new GarbageCollector(this.ctx), new NamespaceController(this.ctx)],
      delayDrawer(options.controllerDelayMs ?? 0),
    );
    this.port = options.port ?? 0;
    this.host = options.host ?? '127.0.0.1';
    for (const name of INITIAL_NAMESPACES) this.seed({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    const requestTimeout = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
    // Node checks for expired requests every `connectionsCheckingInterval` (30 s by default): a shorter
    // timeout needs a shorter check to hold.
    const connectionsCheckingInterval = Math.min(30_000, Math.max(50, Math.floor(requestTimeout / 4)));
    this.server = createServer({ requestTimeout, headersTimeout: requestTimeout, connectionsCheckingInterval }, (req, res) => {
      this.onRequest(req, res).catch((error: unknown) => {
        // Last resort: a bug here must answer 500, not leave the client hanging or crash the host.
        if (res.headersSent) res.destroy();
        else send(res, { code: 500, body: internalError((error as Error).message).status });
      });
    });
  }

  get url(): string {
    return `http://${this.host}:${this.port}`;
  }

  get requests(): readonly RecordedKubeRequest[] {
    return this.log.requests;
  }

  get changes(): readonly StoreChange[] {
    return this.ctx.store.changes;
  }

  kubeConfig(): KubeConfig {
    return kubeConfigFor(this.url);
  }

  kubeconfigYaml(): string {
    return kubeconfigYamlFor(this.url);
  }

  requestsMatching(filter: RequestFilter): RecordedKubeRequest[] {
    return this.log.matching(filter);
  }

  clearRequests(): void {
    this.log.clear();
  }

  registerKind(def: KindRegistration): void {
    this.ctx.kinds.add(fromRegistration(def));
    // Owners of the new kind can be verified now: the garbage collector looks at everything again.
    this.controllers.resync();
  }

  peek(apiVersion: string, kind: string, namespace: string | undefined, name: string): Record<string, unknown> | undefined {
    const def = this.ctx.kinds.byKind(apiVersion, kind);
    return def ? this.ctx.store.get(def, scopeOf(def, namespace), name) : undefined;
  }

  seed(object: Record<string, unknown>): Record<string, unknown> {
    const def = this.kindOf(String(object.apiVersion), String(object.kind));
    const namespace = (object.metadata as { namespace?: string } | undefined)?.namespace ?? 'default';
    // Stored objects are frozen; the caller gets its own copy.
    return structuredClone(this.ops.create(def, scopeOf(def, namespace), object));
  }

  setStatus(apiVersion: string, kind: string, namespace: string | undefined, name: string, status: unknown): Record<string, unknown> {
    const def = this.kindOf(apiVersion, kind);
    return structuredClone(this.ops.update(def, namespace, name, { metadata: {}, status }, { subresource: 'status' }));
  }

  removeFinalizer(apiVersion: string, kind: string, namespace: string | undefined, name: string, finalizer?: string): void {
    const def = this.kindOf(apiVersion, kind);
    const current = this.ops.get(def, namespace, name);
    const finalizers = finalizer === undefined ? [] : (current.metadata.finalizers ?? []).filter((f) => f !== finalizer);
    this.ops.update(def, namespace, name, { ...current, metadata: { ...current.metadata, finalizers } });
  }

  settle(): Promise<void> {
    return this.controllers.settle();
  }

  pauseControllers(): void {
    this.controllers.pause();
  }

  resumeControllers(): void {
    this.controllers.resume();
  }

  async startListening(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.port, this.host, () => {
        this.server.off('error', reject);
        this.port = (this.server.address() as AddressInfo).port;
        resolve();
      });
    });
  }

  dropWatches(): number {
    return this.watches.dropAll();
  }

  async stopListening(): Promise<void> {
    if (!this.server.listening) return;
    this.watches.dropAll();
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    await closed;
  }

  async close(): Promise<void> {
    this.controllers.stop();
    await this.stopListening();
  }

  private kindOf(apiVersion: string, kind: string): KindDef {
    const def = this.ctx.kinds.byKind(apiVersion, kind);
    if (!def) throw new Error(`kind ${apiVersion} ${kind} is not served; registerKind it first`);
    return def;
  }

  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = (req.method ?? 'GET').toUpperCase();
    const url = new URL(req.url ?? '/', 'http://kube-local');
    const query = Object.fromEntries(url.searchParams);
    let rawBody: string;
    try {
      const body = await readBody(req);
      if (body === TOO_LARGE) {
        refuseTooLarge(res);
        return;
      }
      rawBody = body;
    } catch {
      req.socket.destroy();
      return;
    }
    const route = resolveRoute(url.pathname, this.ctx.kinds);
    const resource = route.type === 'resource' ? route : undefined;
    const verb = verbOf(method, route, query);
    const subject = {
      method,
      path: url.pathname,
      ...(verb ? { verb } : {}),
      ...(resource ? { apiVersion: resource.def.apiVersion, kind: resource.def.kind } : {}),
      ...(resource?.namespace ? { namespace: resource.namespace } : {}),
      ...(nameOf(resource?.name, verb, rawBody) !== undefined ? { name: nameOf(resource?.name, verb, rawBody) } : {}),
      ...(resource?.subresource ? { subresource: resource.subresource } : {}),
    };
    const fault = this.faults.take(subject);
    if (fault && 'delayMs' in fault) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
    const traceparent = req.headers['traceparent'];
    const entry = { ...subject, query, ...(typeof traceparent === 'string' ? { traceparent } : {}) };
    const handle = (): ApiResponse => {
      try {
        return this.api.handle({
          method,
          route,
          query,
          rawBody,
          contentType: req.headers['content-type'] ?? '',
          accept: req.headers.accept ?? '',
          userAgent: req.headers['user-agent'] ?? '',
          serverAddress: `${this.host}:${this.port}`,
        });
      } catch (error) {
        const status = internalError((error as Error).message).status;
        return { code: status.code, body: status };
      }
    };
    if (verb === 'watch' && resource && !(fault && 'status' in fault)) {
      this.watch(req, res, resource, query, entry, fault);
      return;
    }
    if (fault && 'connection' in fault) {
      if (fault.afterApply) handle();
      this.log.record({ ...entry, status: 0, fault: 'reset' });
      req.socket.destroy();
      return;
    }
    const response = fault && 'status' in fault ? injectedResponse(fault) : handle();
    this.log.record({ ...entry, status: response.code, ...(fault ? { fault: 'status' in fault ? 'status' : 'delay' } : {}) });
    send(res, response);
  }

  /**
   * Serves a watch: the stream stays open (logged once, when it starts). A `reset` fault drops the
   * connection before the answer, or with `afterApply` once the watch has started and sent its first events.
   */
  private watch(
    req: IncomingMessage,
    res: ServerResponse,
    route: Extract<ReturnType<typeof resolveRoute>, { type: 'resource' }>,
    query: Record<string, string>,
    entry: Omit<RecordedKubeRequest, 'seq' | 'time' | 'status'>,
    fault: FaultSpec | undefined,
  ): void {
    const reset = fault && 'connection' in fault ? fault : undefined;
    if (reset && !reset.afterApply) {
      this.log.record({ ...entry, status: 0, fault: 'reset' });
      req.socket.destroy();
      return;
    }
    try {
      this.watches.open(
        {
          def: route.def,
          ...(route.namespace !== undefined ? { namespace: route.namespace } : {}),
          ...(route.name !== undefined ? { name: route.name } : {}),
        },
        query,
        res,
      );
    } catch (error) {
      const status = error instanceof KubeStatusError ? error.status : internalError((error as Error).message).status;
      this.log.record({ ...entry, status: status.code, ...(fault ? { fault: 'delay' as const } : {}) });
      send(res, { code: status.code, body: status });
      return;
    }
    this.log.record({ ...entry, status: reset ? 0 : 200, ...(fault ? { fault: reset ? ('reset' as const) : ('delay' as const) } : {}) });
    if (reset) {
      // Let the answer and the first events reach the client, then drop the connection.
      const drop = () => req.socket.destroy();
      setImmediate(() => (req.socket.writableLength > 0 ? req.socket.once('drain', drop) : drop()));
    }
  }
}

function injectedResponse(fault: Extract<FaultSpec, { status: number }>): ApiResponse {
  const status = injected(fault.status, fault.message ?? `injected fault: ${fault.status}`, fault.reason).status;
  return { code: status.code, body: status };
}

/** The URL name, or for a create the body's `metadata.name` (so logs and faults can name created objects). */
function nameOf(urlName: string | undefined, verb: string | undefined, rawBody: string): string | undefined {
  if (urlName !== undefined || verb !== 'create') return urlName;
  try {
    const name = (JSON.parse(rawBody) as { metadata?: { name?: unknown } }).metadata?.name;
    return typeof name === 'string' ? name : undefined;
  } catch {
    return undefined;
  }
}

const TOO_LARGE = Symbol('request body too large');

/**
 * The request body as text, or `TOO_LARGE` as soon as the declared length or the bytes received pass
 * `MAX_BODY_BYTES` (the rest is not read).
 */
function readBody(req: IncomingMessage): Promise<string | typeof TOO_LARGE> {
  if (Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES) return Promise.resolve(TOO_LARGE);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
      else {
        req.off('data', onData);
        resolve(TOO_LARGE);
      }
    };
    req.on('data', onData);
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/**
 * Answers 413 and closes the connection once the answer is out: the unread rest of the body would
 * otherwise be taken for the next request on a kept-alive connection.
 */
function refuseTooLarge(res: ServerResponse): void {
  const status = requestEntityTooLarge(MAX_BODY_BYTES).status;
  res.once('finish', () => res.socket?.destroySoon());
  send(res, { code: status.code, body: status, headers: { Connection: 'close' } });
}

function send(res: ServerResponse, response: ApiResponse): void {
  const isText = typeof response.body === 'string';
  const payload = isText ? (response.body as string) : JSON.stringify(response.body);
  res.writeHead(response.code, {
    'Content-Type': isText ? 'text/plain; charset=utf-8' : 'application/json',
    'Cache-Control': 'no-cache, private',
    ...response.headers,
  });
  res.end(payload);
}

/**
 * Starts a local Kubernetes API server with the built-in kinds and the namespaces `default`,
 * `kube-system`, `kube-public`, `kube-node-lease`.
 * @throws Error when the port cannot be bound.
 */
export async function startLocalKube(options: LocalKubeOptions = {}): Promise<LocalKube> {
  const kube = new LocalKubeServer(options);
  await kube.startListening();
  return kube;
}
