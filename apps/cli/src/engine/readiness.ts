/**
 * `/readyz` of one engine process (README "Readiness"). Ready when:
 * - the event store answers `headPosition()` within `probeTimeoutMs`;
 * - every supervised loop (projections, dispatch, leak-inventory where this process reaches Kubernetes) is `running` and at most `maxLagEvents` behind the head;
 * - the job queue answers (`epoch()`) when it is BullMQ on Redis;
 * - writes are accepted (the read model caught up with the head seen at start).
 * The JSON is the same for 200 and 503: `{ status, checks: { event_store, job_queue, loops[] }, writes }`.
 * `kube_watches` (issue #16, where this process hosts adapters) shows each adapter watch's state as
 * information only: a watch down never makes the process unready, the backoff re-runs do the work.
 */
import type { EventStore, LoopStatus } from '@decom/event-store';
import type { JobQueue } from '@decom/jobs';
import type { WatchStatus } from '@decom/adapter';
import type { ReadinessReport } from '../../../api/src/tokens.js';

export interface ReadinessSources {
  readonly store: EventStore;
  readonly queue?: JobQueue;
  /** Each loop's supervisor status and the last `$all` position it handled. */
  readonly loops: readonly { status(): LoopStatus; position(): number }[];
  /** Why writes are refused now, if they are. */
  writeRefusal(): string | undefined;
  readonly maxLagEvents?: number;
  readonly probeTimeoutMs?: number;
  /** The adapters' Kubernetes watches (information, not a condition); none listed when empty. */
  readonly watches?: () => readonly WatchStatus[];
}

type Probe = { readonly status: 'up' } | { readonly status: 'down'; readonly error: string };

export async function checkReadiness(sources: ReadinessSources): Promise<ReadinessReport> {
  const timeoutMs = sources.probeTimeoutMs ?? 2_000;
  const maxLag = sources.maxLagEvents ?? 1_000;
  let head: number | undefined;
  const [eventStore, jobQueue] = await Promise.all([
    probe(async () => void (head = await sources.store.headPosition()), timeoutMs),
    sources.queue ? probe(async () => void (await sources.queue!.epoch()), timeoutMs) : Promise.resolve(undefined),
  ]);
  const loops = sources.loops.map((loop) => {
    const status = loop.status();
    const lag = head === undefined ? undefined : Math.max(0, head - loop.position());
    const isReady = status.state === 'running' && lag !== undefined && lag <= maxLag;
    return { ...status, ...(lag !== undefined ? { lag_events: lag } : {}), ready: isReady };
  });
  const refusal = sources.writeRefusal();
  const watches = sources.watches?.() ?? [];
  const isReady = eventStore.status === 'up' && jobQueue?.status !== 'down' && loops.every((loop) => loop.ready) && !refusal;
  return {
    status: isReady ? 'ready' : 'not_ready',
    checks: {
      event_store: { ...eventStore, ...(head !== undefined ? { head_position: head } : {}) },
      ...(jobQueue ? { job_queue: jobQueue } : {}),
      loops,
      ...(watches.length > 0 ? { kube_watches: watches } : {}),
    },
    writes: refusal ? { accepted: false, reason: refusal } : { accepted: true },
    max_lag_events: maxLag,
  };
}

async function probe(call: () => Promise<void>, timeoutMs: number): Promise<Probe> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      call(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return { status: 'up' };
  } catch (error) {
    return { status: 'down', error: error instanceof Error ? error.message.split('\n')[0]! : String(error) };
  } finally {
    clearTimeout(timer);
  }
}
