/**
 * `/readyz` of one engine process (README "Readiness"), built from cached probe results (dependency-probes.ts):
 * the handler never waits on a network call. Ready when:
 * - every dependency that affects readiness was up at its last probe: the event store and read-model
 *   database, Redis (answering, with `maxmemory-policy noeviction`) when configured, the JWKS of every
 *   issuer fetched over HTTP (fresh cached keys or a successful fetch);
 * - every supervised loop (projections, dispatch, leak-inventory where this process reaches Kubernetes) is
 *   `running` and at most `maxLagEvents` behind the head last probed;
 * - writes are accepted (the projections are running: `ReadSide.writeRefusal`).
 * The JSON is the same for 200 and 503: `{ status, failing[], checks: { event_store, job_queue, dependencies[],
 * loops[], kube_watches }, writes }`; `failing` names each dependency that is not up, with reason and since.
 * Kubernetes and `kube_watches` (where this process hosts adapters) are information only: a watch or the
 * API server down never makes the process unready, the backoff re-runs do the work.
 */
import type { LoopStatus } from '@decom/event-store';
import type { WatchStatus } from '@decom/adapter';
import type { ReadinessReport, DependencyName, ProbeResult } from '@decom/health';

export interface ReadinessSources {
  /** The last probe results (`DependencyProbes.results()`). */
  readonly dependencies: () => readonly ProbeResult[];
  /** Which dependency's probe reads the event store's head (its detail has `head_position`). */
  readonly eventStore: DependencyName;
  /** Each loop's supervisor status and the last `$all` position it handled. */
  readonly loops: readonly { status(): LoopStatus; position(): number }[];
  /** Why writes are refused now, if they are. */
  writeRefusal(): string | undefined;
  readonly maxLagEvents?: number;
  /** The adapters' Kubernetes watches (information, not a condition); none listed when empty. */
  readonly watches?: () => readonly WatchStatus[];
}

type Probe = { readonly status: 'up' } | { readonly status: 'down'; readonly error: string; readonly since: string };

/** The readiness report now, from cached results only (synchronous: no I/O). */
export function readinessReport(sources: ReadinessSources): ReadinessReport {
  const maxLag = sources.maxLagEvents ?? 1_000;
  const dependencies = sources.dependencies();
  const store = dependencies.find((d) => d.dependency === sources.eventStore);
  const redis = dependencies.find((d) => d.dependency === 'redis');
  const rawHead = store?.status === 'up' ? store.detail?.['head_position'] : undefined;
  const head = typeof rawHead === 'number' ? rawHead : undefined;
  const loops = sources.loops.map((loop) => {
    const status = loop.status();
    const lag = head === undefined ? undefined : Math.max(0, head - loop.position());
    const isReady = status.state === 'running' && lag !== undefined && lag <= maxLag;
    return { ...status, ...(lag !== undefined ? { lag_events: lag } : {}), ready: isReady };
  });
  const refusal = sources.writeRefusal();
  const watches = sources.watches?.() ?? [];
  const failing = dependencies
    .filter((d) => d.affects_readiness && d.status !== 'up')
    .map((d) => ({ dependency: d.dependency, status: d.status, reason: d.reason ?? d.status, since: d.since }));
  const isReady = failing.length === 0 && store !== undefined && loops.every((loop) => loop.ready) && !refusal;
  return {
    status: isReady ? 'ready' : 'not_ready',
    failing,
    checks: {
      event_store: { ...asProbe(store), ...(head !== undefined ? { head_position: head } : {}) },
      ...(redis ? { job_queue: asProbe(redis) } : {}),
      dependencies,
      loops,
      ...(watches.length > 0 ? { kube_watches: watches } : {}),
    },
    writes: refusal ? { accepted: false, reason: refusal } : { accepted: true },
    max_lag_events: maxLag,
  };
}

function asProbe(result: ProbeResult | undefined): Probe {
  if (!result) return { status: 'down', error: 'not probed', since: new Date(0).toISOString() };
  return result.status === 'up' ? { status: 'up' } : { status: 'down', error: result.reason ?? result.status, since: result.since };
}
