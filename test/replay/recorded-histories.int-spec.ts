/**
 * Replays every recorded history (test/fixtures/histories/*.json) through today's upcasters, `fold` and
 * `ResourceViewProjection` (real SQLite read model), and checks the outcome recorded with the stream:
 * a change that breaks an old stream fails here, not in production.
 * An intended change of meaning: review, then DECOM_UPDATE_HISTORIES=1 rewrites `expected` (never `events`).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { KindRegistry, breakGlassStatus, fold, isResourceEvent, upcastResourceEvent } from '@decom/domain';
import { BreakGlassProjection, SqliteReadModelStore, breakGlassRequests } from '@decom/projections';
import { replayHistory, type HistoryFixture } from './history-fixture.js';

const folder = resolve('test/fixtures/histories');
const files = readdirSync(folder)
  .filter((file) => file.endsWith('.json'))
  .sort();
const load = (file: string) => JSON.parse(readFileSync(join(folder, file), 'utf8')) as HistoryFixture;
// Test tooling switch, not app config.
const isUpdating = process.env['DECOM_UPDATE_HISTORIES'] === '1';

describe('recorded histories replay through today’s code', () => {
  it('has the recorded streams', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'create-delete-hard-delete.json',
        'create-delete-hard-delete.schema-1.json',
        'force-delete.json',
        'status-discards.json',
      ]),
    );
  });

  it.each(files)('%s: same tree and rows as when recorded', async (file) => {
    const fixture = load(file);
    const summary = await replayHistory(fixture.events, new KindRegistry(fixture.kinds));
    if (isUpdating) writeFileSync(join(folder, file), `${JSON.stringify({ ...fixture, expected: summary }, null, 2)}\n`);
    expect(summary).toEqual(fixture.expected);
  });

  it('create-delete-hard-delete: every resource hard-deleted through the Reconciled gate, children first', async () => {
    const { events, kinds, expected } = load('create-delete-hard-delete.json');
    expect(expected.tree).toEqual([]);
    expect(expected.rows.resources).toEqual([]);
    expect(expected.rows.resource_index.map((row) => [row.kind, row.hard_delete_cause])).toEqual(
      expect.arrayContaining([
        ['Cluster', 'Reconciled'],
        ['NodePool', 'Reconciled'],
        ['NodePool', 'Reconciled'],
      ]),
    );
    const hardDeleted = events.filter((event) => event.type === 'HardDeleted').map((event) => (event.data as { kind: string }).kind);
    expect(hardDeleted).toEqual(['NodePool', 'NodePool', 'Cluster']);
    expect(await replayHistory(events, new KindRegistry(kinds))).toEqual(expected);
  });

  // The assertions below read what today's code makes of the recorded events, not the fixture's `expected`.
  it('force-delete: the audit lists the subresources and the adapter statuses, and nothing is left', async () => {
    const { events, kinds } = load('force-delete.json');
    const audit = events.find((event) => event.type === 'ForceDeleted')!.data as {
      reason: string;
      adapter_statuses: Record<string, unknown[]>;
    };
    expect(audit.reason).not.toBe('');
    expect(Object.values(audit.adapter_statuses).flat().length).toBeGreaterThan(0);
    const replayed = await replayHistory(events, new KindRegistry(kinds));
    expect(replayed.tree).toEqual([]);
    expect(replayed.rows.resource_index.length).toBeGreaterThan(0);
    expect(replayed.rows.resource_index.every((row) => row.hard_delete_cause === 'ForceDeleted')).toBe(true);
  });

  it('status-discards: discarded reports left no event; the stale Finalized did not finish the deletion', async () => {
    const { events, kinds } = load('status-discards.json');
    const reported = events
      .filter((event) => event.type === 'AdapterStatusReported')
      .map((event) => (event.data as { status: { observed_generation: number } }).status.observed_generation);
    expect(reported).not.toContain(7);
    const replayed = await replayHistory(events, new KindRegistry(kinds));
    expect(replayed.tree).toEqual([expect.objectContaining({ phase: 'Finalizing', generation: 2 })]);
    expect(replayed.rows.finalizing).toEqual([expect.objectContaining({ waiting_on: ['validation'] })]);
  });

  it('break-glass: the approval queue replayed from the stream says what the fold says (voided, rejected, approved)', async () => {
    const { events, expected } = load('break-glass.json');
    expect(expected.tree).toEqual([]);
    expect(expected.rows.resource_index.every((row) => row.hard_delete_cause === 'ForceDeleted')).toBe(true);
    const database = new Database(':memory:');
    try {
      const readModels = new SqliteReadModelStore(database);
      const projection = new BreakGlassProjection();
      await readModels.transaction(async (tx) => {
        for (const statement of projection.schema) await tx.execute(statement);
        for (const event of events) await projection.apply(event, tx);
      });
      const now = new Date(events.at(-1)!.recorded_time);
      const rows = await breakGlassRequests(readModels, { limit: 100, now });
      const folded = fold(events.filter((event) => isResourceEvent(event)).map(upcastResourceEvent)).break_glass!;
      expect(rows.map((row) => [row.action, row.status]).sort()).toEqual([
        ['force_delete', 'Approved'],
        ['force_orphan', 'Rejected'],
        ['unpause', 'Voided'],
      ]);
      for (const row of rows) expect(row.status).toBe(breakGlassStatus(folded.get(row.request_id)!, now));
    } finally {
      database.close();
    }
  });

  it('schema 1: old-shape events are upcast and fold like their schema-2 twins', () => {
    const old = load('create-delete-hard-delete.schema-1.json');
    const deletion = old.events.find((event) => event.type === 'DeletionRequested')!;
    expect(deletion.data).not.toHaveProperty('deletion_policy');
    expect(deletion.metadata).not.toHaveProperty('schema_version');
    expect(upcastResourceEvent(deletion).data).toMatchObject({ deletion_policy: 'Delete' });
    const current = load('create-delete-hard-delete.json');
    expect(old.expected.tree).toEqual(current.expected.tree);
    // Step by step, the same resources in the same phases with the same Reconciled verdicts.
    const steps = (trace: readonly string[]) =>
      trace.filter((line) => !line.includes(' DeletionStarted ')).map((line) => line.replace(/^#\d+ /, ''));
    expect(steps(old.expected.trace)).toEqual(steps(current.expected.trace));
    expect(old.expected.rows.resource_index).toEqual(current.expected.rows.resource_index);
  });
});
