/**
 * When the Kubernetes API server the adapters of this process use answers again after an outage, the adapter
 * runs backing off because it did not answer run now rather than at their backoff's slot (minutes later at
 * worst): `requeueBackedOffRuns` in @decom/jobs. Every process hosting adapters does it on its own probe's
 * down → up; several doing it for the same recovery promote each job once.
 */
import type { Logger } from 'pino';
import { describeError } from '@decom/event-store';
import { requeueBackedOffRuns, type JobQueue } from '@decom/jobs';

/**
 * The `onBack` hook of the probes (engine-probes.ts) for `kubernetes`; other dependencies are ignored.
 * `adapters()`: the names of the adapters this process hosts (read at each recovery: the engine starts them
 * after its probes). Logs one line per recovery, `kubernetes reachable again: N backed-off adapter runs
 * re-queued` (plus the dead-lettered runs whose backoff was released, when any), or why re-queueing failed
 * (Redis unreachable too); never throws. Recoveries arriving while one is being handled are handled after
 * it, in turn.
 */
export function kubernetesRecovery(queue: JobQueue, adapters: () => readonly string[], logger: Logger): (dependency: string) => void {
  let last: Promise<void> = Promise.resolve();
  return (dependency) => {
    if (dependency !== 'kubernetes') return;
    const names = adapters();
    if (names.length === 0) return;
    last = last.then(async () => {
      try {
        const { requeued, released } = await requeueBackedOffRuns(queue, names, 'kubernetes');
        const dead =
          released > 0 ? `; backoff released for ${released} dead-lettered resource/adapter pair(s) (their next trigger runs at once)` : '';
        logger.info({ dependency, requeued, released }, `kubernetes reachable again: ${requeued} backed-off adapter runs re-queued${dead}`);
      } catch (error) {
        logger.warn({ dependency }, `kubernetes reachable again: re-queueing backed-off adapter runs failed: ${describeError(error)}`);
      }
    });
  };
}
