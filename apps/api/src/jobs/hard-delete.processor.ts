/**
 * `hard-delete` job → `HardDelete` command: removes the resource (and owners whose gate now holds)
 * when the gate holds, otherwise records nothing (seed 000 "API Hard-Delete Signal"; Decom: the walk up
 * to owners happens in the same append).
 */
import type { CommandBus } from '@nestjs/cqrs';
import { HardDeleteCommand, type DecisionOutcome } from '@decom/application';
import { ResourceNotFound } from '@decom/domain';
import { newTraceId } from '@decom/tracing';
import { HARD_DELETE_QUEUE, type HardDeleteJob, type JobQueue } from '@decom/jobs';

export function registerHardDeleteProcessor(queue: JobQueue, commandBus: CommandBus, now: () => Date = () => new Date()): void {
  queue.process<HardDeleteJob>(
    HARD_DELETE_QUEUE,
    async (job) => {
      // The check runs in the trace of the fact that caused it: its events record that trace_id.
      const traceId = job.data.trace_id ?? newTraceId();
      try {
        await commandBus.execute<HardDeleteCommand, DecisionOutcome>(
          new HardDeleteCommand(
            {
              type: 'HardDelete',
              id: job.data.id,
              kind: job.data.kind,
              metadata: { now: now().toISOString(), caller: 'decom-hard-delete' },
            },
            { caller: 'decom-hard-delete', traceId },
          ),
        );
      } catch (error) {
        // Already gone (force-deleted, or removed with its child in one decision): nothing left to do.
        if (!(error instanceof ResourceNotFound)) throw error;
      }
    },
    { concurrency: 2 },
  );
}
