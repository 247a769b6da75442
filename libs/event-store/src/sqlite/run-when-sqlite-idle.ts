import { setImmediate as nextTick, setTimeout as sleep } from 'node:timers/promises';
import type { Database } from 'better-sqlite3';

/**
 * Runs `run` (synchronous) once no transaction is open on `db`, and returns its result. The event store and
 * the read models share one better-sqlite3 handle, and a read-model transaction stays open across
 * `await`s; a statement issued meanwhile would join it (and roll back with it), a second BEGIN would fail.
 * better-sqlite3 is synchronous, so `run` starting in the same tick as the idle check cannot be
 * interleaved: start transactions inside `run`, never after an `await` of this function's result.
 * Checks every event-loop turn at first, then every millisecond (a transaction waiting on slow I/O).
 */
export async function runWhenSqliteIdle<T>(db: Database, run: () => T): Promise<T> {
  for (let attempt = 0; db.inTransaction; attempt += 1) {
    if (attempt < 100) await nextTick();
    else await sleep(1);
  }
  return run();
}
