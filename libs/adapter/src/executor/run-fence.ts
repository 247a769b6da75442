import type { PropagationPolicy } from '../config/task-config.types.js';
import type { ApiRequest, ApiResponse, HyperfleetApiClient } from '../api-client/hyperfleet-api.types.js';
import type { DeleteOutcome, DiscoveryQuery, KubeObject, ObjectRef, ResourceTransport } from '../transport/resource-transport.port.js';

/** Header carrying a run's fence on every API call of that run: `<generation>.<sequence>`. */
export const FENCE_HEADER = 'x-decom-fence';

/** The answer of a fence check: still ours, or why not (for the trace). */
export type FenceVerdict = { readonly current: true } | { readonly current: false; readonly reason: string };

/**
 * A run's fence, supplied by whoever runs the executor (the worker: the job's
 * group-lock sequence plus the resource read from the API). `generation` is the event's generation,
 * `sequence` grows with every run of this resource and adapter.
 */
export interface ExecutionFence {
  readonly generation: number;
  readonly sequence: number;
  /**
   * Is this run still the current one: lock held, no later run started, the resource exists at
   * `generation` and this adapter has not finalized it? Asked before every write.
   * @throws only for a check that could not be made (counted as not current by the guard).
   */
  check(): Promise<FenceVerdict>;
}

/** The header value of a fence. */
export function fenceHeader(fence: Pick<ExecutionFence, 'generation' | 'sequence'>): string {
  return `${fence.generation}.${fence.sequence}`;
}

/** A write refused because the run's fence is no longer current: the run stops here. */
export class FenceLost extends Error {
  override readonly name = 'FenceLost';
}

/**
 * One execution's fence state. Before a write it asks the fence; once lost, every later call of
 * the run (reads included) is refused at once, so a run that lost its lock stops before its next
 * call. Reads before the loss is known are not checked (they change nothing; a stale read only
 * matters when it leads to a write, and every write is checked).
 */
export class RunGuard {
  private lostReason: string | undefined;

  constructor(private readonly fence: ExecutionFence | undefined) {}

  /** Why the run stopped, once it did. */
  get lost(): string | undefined {
    return this.lostReason;
  }

  /** @throws FenceLost once the fence was found stale. */
  beforeRead(): void {
    if (this.lostReason !== undefined) throw new FenceLost(`run stopped: ${this.lostReason}`);
  }

  /** @throws FenceLost when the fence is (or was found) no longer current. */
  async beforeWrite(what: string): Promise<void> {
    this.beforeRead();
    if (!this.fence) return;
    let verdict: FenceVerdict;
    try {
      verdict = await this.fence.check();
    } catch (error) {
      // Not knowing is not permission: a write after a failed check could be the stale one.
      verdict = { current: false, reason: `fence check failed: ${error instanceof Error ? error.message : String(error)}` };
    }
    if (!verdict.current) {
      this.lostReason = `${verdict.reason} (fence ${fenceHeader(this.fence)}; refused: ${what})`;
      throw new FenceLost(`run stopped: ${this.lostReason}`);
    }
  }
}

/** A transport whose writes are fenced by `guard` (reads are refused once it is lost). */
export class FencedTransport implements ResourceTransport {
  readonly discoverAll?: (query: DiscoveryQuery) => Promise<KubeObject[]>;

  constructor(
    private readonly inner: ResourceTransport,
    private readonly guard: RunGuard,
  ) {
    if (inner.discoverAll) {
      const all = inner.discoverAll.bind(inner);
      this.discoverAll = async (query) => {
        guard.beforeRead();
        return all(query);
      };
    }
  }

  async get(ref: ObjectRef): Promise<KubeObject | undefined> {
    this.guard.beforeRead();
    return this.inner.get(ref);
  }

  async discover(query: DiscoveryQuery): Promise<KubeObject | undefined> {
    this.guard.beforeRead();
    return this.inner.discover(query);
  }

  async create(object: KubeObject): Promise<KubeObject> {
    await this.guard.beforeWrite(`create ${describe(object)}`);
    return this.inner.create(object);
  }

  async replace(object: KubeObject): Promise<KubeObject> {
    await this.guard.beforeWrite(`replace ${describe(object)}`);
    return this.inner.replace(object);
  }

  async delete(ref: ObjectRef, propagationPolicy: PropagationPolicy): Promise<DeleteOutcome> {
    await this.guard.beforeWrite(`delete ${ref.kind} ${ref.namespace ? `${ref.namespace}/` : ''}${ref.name}`);
    return this.inner.delete(ref, propagationPolicy);
  }
}

/** An API client that sends the run's fence header on every call and stops once the fence is lost. */
export class FencedApiClient implements HyperfleetApiClient {
  constructor(
    private readonly inner: HyperfleetApiClient,
    private readonly guard: RunGuard,
    private readonly fence: ExecutionFence,
  ) {}

  resolveUrl(url: string): string {
    return this.inner.resolveUrl(url);
  }

  async request(request: ApiRequest): Promise<ApiResponse> {
    this.guard.beforeRead();
    return this.inner.request({ ...request, headers: { ...request.headers, [FENCE_HEADER]: fenceHeader(this.fence) } });
  }
}

function describe(object: KubeObject): string {
  return `${object.kind} ${object.metadata.namespace ? `${object.metadata.namespace}/` : ''}${object.metadata.name}`;
}
