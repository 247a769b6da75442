/**
 * Reactor checkpoints kept in the read-model database (`reactor_checkpoints`), one row per reactor.
 */
import type { ReadModelStore } from '@decom/projections';
import type { CheckpointStore } from '@decom/jobs';

export class ReadModelCheckpoints implements CheckpointStore {
  private ready?: Promise<void>;

  constructor(private readonly db: ReadModelStore) {}

  private init(): Promise<void> {
    this.ready ??= this.db
      .transaction((tx) => tx.execute(`CREATE TABLE IF NOT EXISTS reactor_checkpoints (name TEXT PRIMARY KEY, position BIGINT NOT NULL)`))
      .then(() => undefined);
    return this.ready;
  }

  async load(name: string): Promise<number> {
    await this.init();
    const rows = await this.db.query<{ position: number | string }>(`SELECT position FROM reactor_checkpoints WHERE name = ?`, [name]);
    return rows[0] ? Number(rows[0].position) : 0;
  }

  async save(name: string, position: number): Promise<void> {
    await this.init();
    await this.db.transaction((tx) =>
      tx.execute(
        `INSERT INTO reactor_checkpoints (name, position) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET position = excluded.position`,
        [name, position],
      ),
    );
  }
}
