import { setImmediate } from 'node:timers/promises';

/**
 * Lets timers, I/O callbacks and other requests run before the caller goes on (a macrotask turn, unlike
 * `await` of a resolved promise). Long walks over the read model call it between batches: better-sqlite3
 * runs on the event loop, so a walk that never yields stalls every request for its whole duration.
 */
export function yieldToEventLoop(): Promise<void> {
  return setImmediate();
}
