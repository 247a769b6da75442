import { setTimeout as sleep } from 'node:timers/promises';
import type { EventStore, RecordedEvent, Subscription } from '@decom/event-store';
import type { Projection } from './projection.port.js';
import type { ReadModelStore } from './read-model-store.port.js';
import {
  CREATE_CHECKPOINTS_TABLE,
  advanceCheckpoint,
  insertMissingCheckpoints,
  readCheckpoints,
  resetCheckpoints,
} from './projection-checkpoints.js';
import { CREATE_SCHEMAS_TABLE, readSchemaDigests, schemaDigest, writeSchemaDigest } from './projection-schemas.js';
import { ProjectionWaitTimeout } from './projection-wait-timeout.error.js';
import { schemaTables } from './schema-tables.js';

export interface ProjectionRunnerOptions {
  /** Events per read-model transaction while catching up (start with a backlog, rebuild). Default 200. */
  readonly batchSize?: number;
  /**
   * Called once when the runner stops on an error (a projection's `apply`, the read-model database, the
   * store). Without it the error is rethrown as an unhandled rejection: never skipped silently.
   */
  readonly onError?: (error: unknown) => void;
  /**
   * Called at start with the projections whose schema changed since their tables were made (or whose tables
   * predate schema digests): their tables were dropped and recreated, and they replay the log from 0.
   */
  readonly onSchemaChange?: (projections: readonly string[]) => void;
}

interface Waiter {
  readonly position: number;
  resolve(): void;
  reject(error: unknown): void;
}

/** Another runner (process) advanced a checkpoint first: roll back, reload the checkpoints, go on. */
class CheckpointMoved extends Error {}

/**
 * Feeds `$all` to a set of projections with exactly-once effect on the read models (a store
 * subscription with a stored checkpoint). Each batch of events is applied by every projection that has not
 * seen it yet, and those projections' checkpoints move in the same read-model transaction, so a crash
 * anywhere leaves events either fully applied and checkpointed or not at all; the next start resumes
 * from the checkpoints. Each projection has its own checkpoint: one added later catches up alone.
 * Catch-up reads batches of `batchSize` per transaction; once caught up, live events come from
 * `subscribeToAll`, each with the events appended after it meanwhile (a read-ahead) in one transaction.
 * A projection with `applyBatch` gets a transaction's events in one call. A checkpoint only moves from the value this runner last saw
 * (compare-and-set), so several processes running the same runner never apply an event twice.
 * One runner per process per projection set; do not call `rebuild` and `start` concurrently.
 */
export class ProjectionRunner {
  private readonly checkpoints: Map<string, number>;
  private readonly names: readonly string[];
  private readonly batchSize: number;
  private readonly waiters = new Set<Waiter>();
  private loop: Promise<void> | undefined;
  private subscription: Subscription | undefined;
  private isStopping = false;
  private failure: { readonly error: unknown } | undefined;

  constructor(
    private readonly store: EventStore,
    private readonly readModels: ReadModelStore,
    private readonly projections: readonly Projection[],
    private readonly options: ProjectionRunnerOptions = {},
  ) {
    this.names = projections.map((projection) => projection.name);
    if (this.names.length === 0) throw new TypeError('ProjectionRunner needs at least one projection');
    const repeated = this.names.filter((name, index) => this.names.indexOf(name) !== index);
    if (repeated.length > 0) throw new TypeError(`projection names must be unique: ${repeated.join(', ')}`);
    this.checkpoints = new Map(this.names.map((name) => [name, 0]));
    this.batchSize = options.batchSize ?? 200;
  }

  /**
   * Creates the projections' tables and checkpoint rows when missing, loads the checkpoints, then catches
   * up and follows `$all` in the background. Resolves once running (not once caught up: see `waitFor`).
   * @throws Error when already running.
   */
  async start(): Promise<void> {
    if (this.loop && !this.failure) throw new Error('ProjectionRunner already started');
    await this.stop();
    this.isStopping = false;
    this.failure = undefined;
    this.setCheckpoints(await this.prepare());
    this.loop = this.run();
  }

  /** Stops following `$all`; resolves once no transaction of ours is in flight. Idempotent. */
  async stop(): Promise<void> {
    this.isStopping = true;
    await this.loop;
    this.loop = undefined;
    const subscription = this.subscription;
    this.subscription = undefined;
    await subscription?.close();
  }

  /**
   * Resolves once every projection has applied `$all` up to `position` (an `AppendResult.position`):
   * read-your-writes for the API.
   * @throws ProjectionWaitTimeout after `timeoutMs` (default 5000).
   * @throws the runner's error if it stops on one meanwhile.
   */
  waitFor(position: number, timeoutMs = 5000): Promise<void> {
    if (this.failure) return Promise.reject(this.failure.error);
    if (this.position() >= position) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new ProjectionWaitTimeout(position, this.position(), timeoutMs));
      }, timeoutMs);
      const waiter: Waiter = {
        position,
        resolve: () => (clearTimeout(timer), resolve()),
        reject: (error) => (clearTimeout(timer), reject(error)),
      };
      this.waiters.add(waiter);
    });
  }

  /** The lowest stored checkpoint of the projections: every event up to it is in every read model. */
  async checkpoint(): Promise<number> {
    const checkpoints = await this.readModels.transaction(async (tx) => {
      await tx.execute(CREATE_CHECKPOINTS_TABLE);
      return readCheckpoints(tx, this.names);
    });
    return Math.min(...checkpoints.values());
  }

  /**
   * Rebuilds every read model from scratch: stops, drops the tables named by the projections' `CREATE TABLE`
   * statements, recreates them, resets the checkpoints (one transaction), replays `$all` in batches, and
   * restarts if it was running. `onProgress(done, total)` counts positions (dense in our backends), with
   * `total` the head when the rebuild began (raised if events arrive meanwhile).
   */
  async rebuild(onProgress?: (done: number, total: number) => void): Promise<void> {
    const wasRunning = this.loop !== undefined && !this.failure;
    await this.stop();
    this.failure = undefined;
    await this.readModels.transaction(async (tx) => {
      await tx.execute(CREATE_CHECKPOINTS_TABLE);
      for (const projection of [...this.projections].reverse()) {
        for (const table of schemaTables(projection.schema).reverse()) await tx.execute(`DROP TABLE IF EXISTS ${table}`);
      }
      for (const projection of this.projections) for (const statement of projection.schema) await tx.execute(statement);
      await resetCheckpoints(tx, this.names);
      await tx.execute(CREATE_SCHEMAS_TABLE);
      for (const projection of this.projections) await writeSchemaDigest(tx, projection.name, schemaDigest(projection.schema));
    });
    this.checkpoints.forEach((_, name) => this.checkpoints.set(name, 0));
    const total = await this.store.headPosition();
    onProgress?.(0, total);
    await this.catchUp(
      () => true,
      (done) => onProgress?.(done, Math.max(total, done)),
    );
    if (wasRunning) await this.start();
  }

  /**
   * Creates missing tables and checkpoint rows, returns the checkpoints. The DDL runs only when a table is
   * missing, in a set-up transaction (advisory-locked on PostgreSQL), and apart from the checkpoint rows:
   * a second process starting while a first one's runner holds its checkpoint row and writes the read
   * models then takes no lock the runner waits for, so the two cannot deadlock. A race that
   * still fails (two first starts on a server without the lock) is retried; a persistent error surfaces.
   */
  private async prepare(attempts = 3): Promise<Map<string, number>> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        if ((await this.anyTableMissing()) || (await this.anySchemaChanged())) {
          const setup = this.readModels.setupTransaction?.bind(this.readModels) ?? this.readModels.transaction.bind(this.readModels);
          const rebuilt: string[] = [];
          await setup(async (tx) => {
            await tx.execute(CREATE_CHECKPOINTS_TABLE);
            await tx.execute(CREATE_SCHEMAS_TABLE);
            // Decided again under the set-up lock: another process may have upgraded the tables meanwhile.
            const digests = await readSchemaDigests(tx);
            const checkpoints = await readCheckpoints(tx, this.names);
            for (const projection of this.projections) {
              const digest = schemaDigest(projection.schema);
              const stored = digests.get(projection.name);
              // Tables from another schema (or from before digests, with events applied): derived data, so
              // replay it. Checkpoint first, then the tables: a running runner elsewhere locks them in that order.
              if (stored !== digest && (stored !== undefined || (checkpoints.get(projection.name) ?? 0) > 0)) {
                await resetCheckpoints(tx, [projection.name]);
                for (const table of schemaTables(projection.schema).reverse()) await tx.execute(`DROP TABLE IF EXISTS ${table}`);
                rebuilt.push(projection.name);
              }
              for (const statement of projection.schema) await tx.execute(statement);
              await writeSchemaDigest(tx, projection.name, digest);
            }
          });
          if (rebuilt.length > 0) this.options.onSchemaChange?.(rebuilt);
        }
        return await this.readModels.transaction(async (tx) => {
          await insertMissingCheckpoints(tx, this.names);
          return readCheckpoints(tx, this.names);
        });
      } catch (error) {
        if (attempt >= attempts) throw error;
        await sleep(10 * attempt);
      }
    }
  }

  /** Whether a projection's stored schema digest differs from its schema (or none is stored). */
  private async anySchemaChanged(): Promise<boolean> {
    const digests = await readSchemaDigests(this.readModels);
    return this.projections.some((projection) => digests.get(projection.name) !== schemaDigest(projection.schema));
  }

  /** Whether a table of the projections (or the checkpoints table) does not exist yet. */
  private async anyTableMissing(): Promise<boolean> {
    const tables = ['projection_checkpoints', ...this.projections.flatMap((projection) => schemaTables(projection.schema))];
    for (const table of tables) {
      try {
        await this.readModels.query(`SELECT 1 FROM ${table} LIMIT 0`);
      } catch {
        return true;
      }
    }
    return false;
  }

  private async run(): Promise<void> {
    try {
      await this.catchUp(() => !this.isStopping);
      if (this.isStopping) return;
      this.subscription = this.store.subscribeToAll((event) => this.applyLive(event), {
        afterPosition: this.position(),
        onError: (error) => this.fail(error),
      });
    } catch (error) {
      this.fail(error);
    }
  }

  /** Applies the backlog in batches until a read comes back short (caught up) or `shouldGoOn` says stop. */
  private async catchUp(shouldGoOn: () => boolean, onBatch?: (done: number) => void): Promise<void> {
    while (shouldGoOn()) {
      const events = await this.store.readAll({ afterPosition: this.position(), maxCount: this.batchSize });
      if (events.length === 0) return;
      await this.apply(events);
      onBatch?.(events[events.length - 1]!.position);
      if (events.length < this.batchSize) return;
    }
  }

  /**
   * A live event and whatever was appended after it meanwhile (up to `batchSize`), in one transaction: under
   * a burst of appends the read models take them in batches, not one transaction each. Events a read-ahead
   * applied already arrive here later and are skipped.
   */
  private async applyLive(event: RecordedEvent): Promise<void> {
    if (event.position <= this.position()) return;
    const events = await this.store.readAll({ afterPosition: this.position(), maxCount: this.batchSize });
    await this.apply(events.length > 0 ? events : [event]);
  }

  /** Applies `events` (ascending) to the projections behind them, with their checkpoints, in one transaction. */
  private async apply(events: readonly RecordedEvent[]): Promise<void> {
    const last = events[events.length - 1]!.position;
    for (;;) {
      const behind = this.projections.filter((projection) => this.checkpointOf(projection) < last);
      if (behind.length === 0) return;
      try {
        await this.readModels.transaction(async (tx) => {
          for (const projection of behind) {
            if (!(await advanceCheckpoint(tx, projection.name, this.checkpointOf(projection), last))) throw new CheckpointMoved();
          }
          for (const projection of behind) {
            const after = this.checkpointOf(projection);
            const unseen = events.filter((event) => event.position > after);
            if (projection.applyBatch) await projection.applyBatch(unseen, tx);
            else for (const event of unseen) await projection.apply(event, tx);
          }
        });
        for (const projection of behind) this.checkpoints.set(projection.name, last);
        this.settleWaiters();
        return;
      } catch (error) {
        if (!(error instanceof CheckpointMoved)) throw error;
        // Re-creating a missing row (deleted by hand) keeps this loop from spinning on a row that is not there.
        const stored = await this.readModels.transaction(async (tx) => {
          await insertMissingCheckpoints(tx, this.names);
          return readCheckpoints(tx, this.names);
        });
        this.setCheckpoints(stored);
      }
    }
  }

  private fail(error: unknown): void {
    if (this.failure) return;
    this.failure = { error };
    this.isStopping = true;
    for (const waiter of this.waiters) waiter.reject(error);
    this.waiters.clear();
    if (this.options.onError) this.options.onError(error);
    else void Promise.reject(error);
  }

  private setCheckpoints(checkpoints: ReadonlyMap<string, number>): void {
    checkpoints.forEach((position, name) => this.checkpoints.set(name, position));
    this.settleWaiters();
  }

  private settleWaiters(): void {
    const position = this.position();
    for (const waiter of this.waiters) {
      if (waiter.position <= position) {
        this.waiters.delete(waiter);
        waiter.resolve();
      }
    }
  }

  private checkpointOf(projection: Projection): number {
    return this.checkpoints.get(projection.name) ?? 0;
  }

  /** Lowest in-memory checkpoint: `$all` is applied to every read model up to this position. */
  appliedPosition(): number {
    return this.position();
  }

  /** Whether the runner is following `$all` (started, not stopped, not failed). */
  isRunning(): boolean {
    return this.loop !== undefined && !this.failure && !this.isStopping;
  }

  private position(): number {
    return Math.min(...this.checkpoints.values());
  }
}
