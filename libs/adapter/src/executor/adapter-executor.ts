import type { HyperfleetApiClient } from '../api-client/hyperfleet-api.types.js';
import type { TaskConfig } from '../config/task-config.types.js';
import type { DiscoveryQuery, ResourceTransport } from '../transport/resource-transport.port.js';
import { ExecutionContext } from './execution-context.js';
import { ExecutionRecorder } from './execution-recorder.js';
import type { ExecutionResult, PhaseName } from './execution-result.js';
import { extractParams } from './param-extraction.phase.js';
import { runPostActions } from './post-actions.phase.js';
import { runPreconditions } from './preconditions.phase.js';
import { RecordingTransport } from './recording-transport.js';
import { type RecreateWait, runResources } from './resources.phase.js';
import type { TransportResolver } from './resource-target.js';
import { type ExecutionFence, FencedApiClient, FencedTransport, RunGuard } from './run-fence.js';
import { RunReadCacheTransport } from './run-read-cache.transport.js';

/** Per-run options of `execute`. */
export interface ExecutionRun {
  /** The run's fence: every write is checked against it first (run-fence.ts). */
  readonly fence?: ExecutionFence;
  /**
   * How many consecutive runs of this resource and adapter this one is (the worker's persistent backoff);
   * from 2 on, a `Health=False` message ends with `(attempt N)`.
   */
  readonly attempt?: number;
  /**
   * The API client of this run instead of the executor's own (the worker's per-run
   * `RunReadCache`); it must reach the same API.
   */
  readonly api?: HyperfleetApiClient;
  /**
   * Remember this run's Kubernetes reads until its first write (RunReadCacheTransport). The
   * worker's runs set it; dry runs and deletion plans leave it off, so their traces list every read made.
   */
  readonly rememberReads?: boolean;
  /**
   * While the resource is deleting, go on within this pass through deletes a `lifecycle.delete.when` held
   * back until an earlier delete of the same pass confirmed its object gone (resources.phase.ts
   * `continueOrderedDeletes`). The worker's runs set it; dry runs and deletion plans leave it
   * off, so they show HyperFleet's passes one by one.
   */
  readonly continueDeletes?: boolean;
}

/** What an executor acts through; clock, env and deployment config are injected (STYLE.md §3). */
export interface AdapterRuntimeDeps {
  api: HyperfleetApiClient;
  /** Kubernetes (resources without `transport` or with `client: kubernetes`). */
  transport: ResourceTransport;
  /**
   * Maestro transport for a consumer (`transport.maestro.target_cluster`); without it, resources
   * with `client: maestro` fail (resource phase error).
   */
  maestro?: (consumer: string) => ResourceTransport;
  now?: () => Date;
  /** The `env` variable and `env.` param sources; `{}` when not given (never `process.env` here). */
  env?: Record<string, string | undefined>;
  /** The `config` variable and `config.` param sources. */
  config?: Record<string, unknown>;
  /** `recreate_on_change` wait; defaults to 30 s, polling every 500 ms. */
  recreateWait?: Partial<RecreateWait>;
  /**
   * Bound of each cluster call on the orphan path (which must finish without a live connection),
   * in ms; default 5 000. After a connection failure the other objects on that cluster are not tried.
   */
  orphanCallTimeoutMs?: number;
  /**
   * Apply as HyperFleet's dry-run recording client does: a present object is replaced (`update`, or
   * `recreate` with `recreate_on_change`) even when its `hyperfleet.io/generation` is unchanged. Default
   * false: an unchanged generation is a `skip`, as in HyperFleet.
   */
  replaceUnchanged?: boolean;
}

/** CloudEvent data as Sentinel sends it (`{id, kind, href, generation, owner_references?}`). */
export type AdapterEvent = {
  id: string;
  kind: string;
  href?: string;
  generation?: number;
  owner_references?: { id: string; kind: string; href?: string };
} & Record<string, unknown>;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs one adapter task config for one event: param_extraction → preconditions → resources →
 * post_actions, with HyperFleet's semantics (resource_executor.go) and Decom's safer rules
 * (docs/adapter-expression-context.md) and policy rules (docs/policies.md "Adapter side": ownership
 * marker, adoption and deletion policies, pause, connection failures). One instance may execute
 * many events; each call has its own state. Never throws for execution problems: they are in the
 * result.
 * @see seeds/000 "Adapter Framework Changes", HyperFleet: hyperfleet-adapter internal/executor/resource_executor.go.
 */
export class AdapterExecutor {
  constructor(
    private readonly task: TaskConfig,
    private readonly adapter: { name: string; version?: string },
    private readonly deps: AdapterRuntimeDeps,
  ) {}

  /**
   * With `run.fence`, every Kubernetes write first confirms the fence; once it is stale the run
   * stops: no further call, no post actions (no status report), `result.fence.lost` says why.
   */
  async execute(event: AdapterEvent, run: ExecutionRun = {}): Promise<ExecutionResult> {
    const recorder = new ExecutionRecorder();
    const guard = new RunGuard(run.fence);
    const base = run.api ?? this.deps.api;
    const api = run.fence ? new FencedApiClient(base, guard, run.fence) : base;
    const fenced = (transport: ResourceTransport): ResourceTransport => (run.fence ? new FencedTransport(transport, guard) : transport);
    const ctx = new ExecutionContext(
      {
        adapter: this.adapter,
        event,
        env: this.deps.env ?? {},
        config: this.deps.config ?? {},
        now: this.deps.now ?? (() => new Date()),
        ...(run.attempt !== undefined && { attempt: run.attempt }),
      },
      recorder,
    );
    const remembered = run.rememberReads ? new RunReadCacheTransport(this.deps.transport) : undefined;
    const maestro = this.deps.maestro;
    const transports: TransportResolver = {
      kubernetes: new RecordingTransport(fenced(remembered ?? this.deps.transport), recorder),
      ...(maestro && { maestro: (consumer: string) => new RecordingTransport(fenced(maestro(consumer)), recorder, `maestro:${consumer}`) }),
    };
    const wait: RecreateWait = { timeoutMs: 30_000, intervalMs: 500, sleep, ...this.deps.recreateWait };
    const skip = (...phases: PhaseName[]) => phases.forEach((phase) => recorder.phase({ phase, status: 'skipped' }));

    const result = () => this.result(ctx, recorder, run.fence, guard);
    if (!(await extractParams(ctx, this.task, api))) {
      skip('preconditions', 'resources', 'post_actions');
      return result();
    }
    const outcome = await runPreconditions(ctx, this.task, api);
    if (outcome === 'stop') {
      // The resource is gone (404): nothing to reconcile and nobody to report to.
      skip('resources', 'post_actions');
      return result();
    }
    // With remembered reads, the pass's by-name discoveries on Kubernetes are read at once up front (one
    // round trip, not one per resource); the pass then makes and records them in order as before.
    const prefetch =
      remembered && guard.lost === undefined ? (queries: readonly DiscoveryQuery[]) => remembered.prefetch(queries) : undefined;
    if (outcome === 'continue') {
      await runResources(ctx, this.task, transports, {
        wait,
        orphanCallTimeoutMs: this.deps.orphanCallTimeoutMs ?? 5_000,
        ...(prefetch && { prefetch }),
        ...(run.continueDeletes && { continueDeletes: true }),
        ...(this.deps.replaceUnchanged && { replaceUnchanged: true }),
      });
    } else skip('resources');
    if (guard.lost !== undefined) {
      // A later run owns this resource now (or it is gone): whatever this run saw is stale, so it
      // reports nothing; the current run reports.
      ctx.fail('FenceLost', { phase: 'resources', step: 'fence', message: `run stopped: ${guard.lost}` });
      skip('post_actions');
      return result();
    }
    await runPostActions(ctx, this.task, api);
    return result();
  }

  private result(ctx: ExecutionContext, recorder: ExecutionRecorder, fence?: ExecutionFence, guard?: RunGuard): ExecutionResult {
    const adapter = ctx.adapterMetadata();
    return {
      ...(fence && {
        fence: { generation: fence.generation, sequence: fence.sequence, ...(guard?.lost !== undefined && { lost: guard.lost }) },
      }),
      status: adapter.executionStatus,
      adapter,
      phases: recorder.phases,
      operations: recorder.operations,
      celResults: recorder.celResults,
      apiCalls: recorder.apiCalls,
      kubeCalls: recorder.kubeCalls,
      statusReports: recorder.statusReports,
      payloads: recorder.payloads,
      logs: recorder.logs,
      policy: { resource: ctx.resourcePolicy, outcomes: recorder.policyOutcomes, overrides: recorder.overrides },
    };
  }
}
