import type { PropagationPolicy } from '../config/task-config.types.js';
import type { DeleteOutcome, DiscoveryQuery, KubeObject, ObjectRef, ResourceTransport } from '../transport/resource-transport.port.js';
import type { ExecutionRecorder } from './execution-recorder.js';
import type { KubeCallRecord } from './execution-result.js';

function outcomeOf(error: unknown): string {
  const reason = (error as { reason?: unknown }).reason;
  return typeof reason === 'string' ? reason : error instanceof Error ? error.name : 'error';
}

/** Decorates a transport so every call lands in the execution trace (`kubeCalls`). */
export class RecordingTransport implements ResourceTransport {
  constructor(
    private readonly inner: ResourceTransport,
    private readonly recorder: ExecutionRecorder,
    /** Label of the path the calls take (`maestro:<consumer>`); absent = Kubernetes. */
    private readonly via?: string,
  ) {}

  private async track<T>(record: Omit<KubeCallRecord, 'outcome'>, call: () => Promise<T>, outcome: (value: T) => string): Promise<T> {
    const via = this.via ? { via: this.via } : {};
    try {
      const value = await call();
      this.recorder.kubeCall({ ...record, ...via, outcome: outcome(value) });
      return value;
    } catch (error) {
      this.recorder.kubeCall({ ...record, ...via, outcome: outcomeOf(error) });
      throw error;
    }
  }

  get(ref: ObjectRef): Promise<KubeObject | undefined> {
    return this.track(
      { verb: 'get', kind: ref.kind, name: ref.name, ...(ref.namespace && { namespace: ref.namespace }) },
      () => this.inner.get(ref),
      (v) => (v ? 'ok' : 'not-found'),
    );
  }

  discover(query: DiscoveryQuery): Promise<KubeObject | undefined> {
    const name =
      query.byName ??
      (query.labelSelector
        ? Object.entries(query.labelSelector)
            .map(([k, v]) => `${k}=${v}`)
            .join(',')
        : undefined);
    return this.track(
      { verb: 'discover', kind: query.kind, ...(name && { name }), ...(query.namespace && { namespace: query.namespace }) },
      () => this.inner.discover(query),
      (v) => (v ? `ok ${v.metadata.name}` : 'not-found'),
    );
  }

  /** Every match (the inner transport's `discoverAll`, or its single `discover` match). */
  discoverAll(query: DiscoveryQuery): Promise<KubeObject[]> {
    const name =
      query.byName ??
      (query.labelSelector
        ? Object.entries(query.labelSelector)
            .map(([k, v]) => `${k}=${v}`)
            .join(',')
        : undefined);
    const inner = this.inner;
    return this.track(
      { verb: 'discover', kind: query.kind, ...(name && { name }), ...(query.namespace && { namespace: query.namespace }) },
      async () =>
        inner.discoverAll ? inner.discoverAll(query) : [await inner.discover(query)].filter((o): o is KubeObject => o !== undefined),
      (v) => (v.length > 0 ? `ok ${v.map((o) => o.metadata.name).join(',')}` : 'not-found'),
    );
  }

  create(object: KubeObject): Promise<KubeObject> {
    return this.track(
      {
        verb: 'create',
        kind: object.kind,
        name: object.metadata.name,
        ...(object.metadata.namespace && { namespace: object.metadata.namespace }),
      },
      () => this.inner.create(object),
      () => 'ok',
    );
  }

  replace(object: KubeObject): Promise<KubeObject> {
    return this.track(
      {
        verb: 'replace',
        kind: object.kind,
        name: object.metadata.name,
        ...(object.metadata.namespace && { namespace: object.metadata.namespace }),
      },
      () => this.inner.replace(object),
      () => 'ok',
    );
  }

  delete(ref: ObjectRef, propagationPolicy: PropagationPolicy): Promise<DeleteOutcome> {
    return this.track(
      { verb: 'delete', kind: ref.kind, name: ref.name, ...(ref.namespace && { namespace: ref.namespace }) },
      () => this.inner.delete(ref, propagationPolicy),
      (v) => v,
    );
  }
}
