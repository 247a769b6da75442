/**
 * The break-glass approval queue read model (break_glass_requests): a history with requests approved, voided,
 * rejected and left to expire, appended to a real SQLite event store and applied by the ProjectionRunner, shows
 * each request with the status the domain folds from the same events; a rebuild (drop + replay of `$all`)
 * reproduces the rows exactly.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '@decom/event-store';
import { breakGlassStatus, fold, type ResourceEvent } from '@decom/domain';
import { BreakGlassProjection, breakGlassRequests } from './break-glass.projection.js';
import { ProjectionRunner } from './runner/projection-runner.js';
import { SqliteReadModelStore } from './runner/sqlite-read-model-store.js';

const T0 = '2026-12-01T10:00:00.000Z';
const C = 'c0000000-0000-7000-8000-000000000001';
const requested = (
  n: number,
  action: 'force_delete' | 'unpause',
  generation: number,
  expires_at = '2026-12-01T11:00:00.000Z',
): ResourceEvent => ({
  type: 'BreakGlassRequested',
  data: {
    request_id: `r${n}`,
    action,
    id: C,
    kind: 'Cluster',
    generation,
    reason: `reason ${n}`,
    requested_by: 'alice@example.com',
    requested_time: `2026-12-01T10:0${n}:00.000Z`,
    expires_at,
  },
});
const history: ResourceEvent[] = [
  {
    type: 'ResourceCreated',
    data: { id: C, kind: 'Cluster', name: 'prod', spec: {}, labels: {}, generation: 1, created_time: T0, created_by: 'alice@example.com' },
  },
  requested(1, 'unpause', 1),
  {
    type: 'BreakGlassRejected',
    data: {
      request_id: 'r1',
      id: C,
      kind: 'Cluster',
      rejected_by: 'bob@example.com',
      reason: 'no',
      rejected_time: '2026-12-01T10:01:30.000Z',
    },
  },
  requested(2, 'unpause', 1),
  {
    type: 'SpecChanged',
    data: { id: C, kind: 'Cluster', spec: { v: 2 }, labels: {}, generation: 2, updated_time: T0, updated_by: 'alice@example.com' },
  },
  {
    type: 'BreakGlassVoided',
    data: {
      request_id: 'r2',
      id: C,
      kind: 'Cluster',
      requested_generation: 1,
      current_generation: 2,
      voided_by: 'bob@example.com',
      voided_time: '2026-12-01T10:02:30.000Z',
    },
  },
  { type: 'DeletionRequested', data: { id: C, kind: 'Cluster', generation: 3, deleted_time: T0, deleted_by: 'alice@example.com' } },
  requested(3, 'force_delete', 3, '2026-12-01T10:30:00.000Z'),
  requested(4, 'force_delete', 3),
  {
    type: 'BreakGlassApproved',
    data: { request_id: 'r4', id: C, kind: 'Cluster', approved_by: 'bob@example.com', approved_time: '2026-12-01T10:05:00.000Z' },
  },
];
const NOW = new Date('2026-12-01T10:45:00.000Z');

describe('break_glass_requests read model: replay and rebuild', () => {
  let folder: string;
  let store: SqliteEventStore;
  let runner: ProjectionRunner;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'decom-break-glass-'));
    store = new SqliteEventStore(join(folder, 'decom.db'), { pollIntervalMs: 50 });
    const { position } = await store.append(
      `cluster-${C}`,
      history.map((e) => ({ type: e.type, data: e.data })),
    );
    runner = new ProjectionRunner(store, new SqliteReadModelStore(store.database), [new BreakGlassProjection()]);
    await runner.start();
    await runner.waitFor(position);
  });
  afterAll(async () => {
    await runner?.stop();
    await store?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const rows = () => breakGlassRequests(new SqliteReadModelStore(store.database), { limit: 100, now: NOW });

  it('each request has the status the domain folds from the same events, newest first', async () => {
    const folded = fold(history).break_glass!;
    const listed = await rows();
    expect(listed.map((r) => [r.request_id, r.status])).toEqual([
      ['r4', 'Approved'],
      ['r3', 'Expired'],
      ['r2', 'Voided'],
      ['r1', 'Rejected'],
    ]);
    for (const row of listed) expect(row.status).toBe(breakGlassStatus(folded.get(row.request_id)!, NOW));
    expect(listed.find((r) => r.request_id === 'r2')!.decision).toEqual({
      status: 'Voided',
      by: 'bob@example.com',
      time: '2026-12-01T10:02:30.000Z',
      current_generation: 2,
    });
    expect(listed[0]).toMatchObject({ target: { kind: 'Cluster', id: C }, generation: 3, stream: `cluster-${C}` });
    const read = new SqliteReadModelStore(store.database);
    expect((await breakGlassRequests(read, { status: 'Expired', limit: 10, now: NOW })).map((r) => r.request_id)).toEqual(['r3']);
    expect(
      (await breakGlassRequests(read, { status: 'Pending', limit: 10, now: new Date('2026-12-01T10:10:00.000Z') })).map(
        (r) => r.request_id,
      ),
    ).toEqual(['r3']);
  });

  it('a rebuild (drop and replay of $all) reproduces the rows', async () => {
    const before = await rows();
    await runner.rebuild();
    expect(await rows()).toEqual(before);
  });
});
