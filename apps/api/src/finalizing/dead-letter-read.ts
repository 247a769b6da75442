/**
 * The dead letters the stuck-deletion list joins into its blockers, or, while the job queue cannot be read,
 * none and a marker saying so: the list still comes from the read model, and `dead_letters.status`
 * `unavailable` (with `reason` and `since`, RFC 3339) tells a reader that `DeadLettered` blockers are
 * unknown rather than absent.
 */
import { QueueUnavailable, type QueueAvailability } from '@decom/jobs';
import type { DeadLetter } from '@decom/domain';
import type { DeadLetterSource } from '../tokens.js';

export interface DeadLetterRead {
  readonly deadLetters: readonly DeadLetter[];
  readonly availability: QueueAvailability;
}

/** @throws what `source.list()` throws, except `QueueUnavailable`. */
export async function readDeadLetters(source: DeadLetterSource): Promise<DeadLetterRead> {
  try {
    const deadLetters = await source.list();
    return { deadLetters, availability: { status: 'available' } };
  } catch (error) {
    if (!(error instanceof QueueUnavailable)) throw error;
    return { deadLetters: [], availability: { status: 'unavailable', reason: error.reason, since: error.since } };
  }
}
