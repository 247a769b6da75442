import { finalizingBlockers, type BlockerInput } from './finalizing-blockers.js';
import type { AdapterStatus } from './resource.events.js';

const T = '2026-12-01T10:00:00.000Z';
const report = (adapter: string, generation: number, conditions: Record<string, [string, string?, string?]>): AdapterStatus => ({
  adapter,
  observed_generation: generation,
  conditions: Object.entries(conditions).map(([type, [status, reason, message]]) => ({
    type,
    status: status as 'True' | 'False' | 'Unknown',
    ...(reason ? { reason } : {}),
    ...(message ? { message } : {}),
    last_transition_time: T,
  })),
  created_time: T,
  last_report_time: '2026-12-01T10:00:05.000Z',
});
const base = (over: Partial<BlockerInput> = {}): BlockerInput => ({
  generation: 2,
  deleted_time: T,
  now: '2026-12-01T10:01:00.000Z',
  required_adapters: ['validation'],
  adapter_statuses: {},
  child_record_count: 0,
  conditions: [],
  child_ids: [],
  live_referrers: [],
  dead_letters: [],
  ...over,
});

describe('deletion blockers (issue #14; seed 000 #5, seed 001 stuck detection, seed 004)', () => {
  it('an adapter that never reported: AdapterNotFinalized, reported=false', () => {
    expect(finalizingBlockers(base())).toEqual([
      { type: 'AdapterNotFinalized', adapter: 'validation', reported: false, generation: 2, held_by_pause: false, message: 'validation: no report yet' },
    ]);
  });

  it("an unhealthy adapter: its Health reason and message, Finalized and the last report time", () => {
    const statuses = { validation: report('validation', 2, { Finalized: ['False', 'CleanupFailed', 'not done'], Health: ['False', 'DeletionError', '403 Forbidden'] }) };
    const [blocker] = finalizingBlockers(base({ adapter_statuses: statuses }));
    expect(blocker).toMatchObject({
      type: 'AdapterNotFinalized',
      reported: true,
      observed_generation: 2,
      health: { status: 'False', reason: 'DeletionError', message: '403 Forbidden' },
      finalized: { status: 'False', reason: 'CleanupFailed', message: 'not done' },
      last_report_time: '2026-12-01T10:00:05.000Z',
      message: 'validation: DeletionError: 403 Forbidden',
    });
  });

  it('a report at an older generation says so; a finalized adapter is no blocker', () => {
    const old = { validation: report('validation', 1, { Finalized: ['True'] }) };
    expect(finalizingBlockers(base({ adapter_statuses: old }))[0]!.message).toBe('validation: last report at generation 1, deletion is generation 2');
    const done = { validation: report('validation', 2, { Finalized: ['True'], Health: ['True'] }) };
    expect(finalizingBlockers(base({ adapter_statuses: done }))).toEqual([]);
  });

  it('a pause comes first, names who and why, and marks the adapters as held by it', () => {
    const pause = { source: 'parent' as const, resource: { id: 'c1', kind: 'Cluster' }, paused_by: 'alice', reason: 'INC-9', paused_time: T };
    const blockers = finalizingBlockers(base({ pause }));
    expect(blockers.map((b) => b.type)).toEqual(['Paused', 'AdapterNotFinalized']);
    expect(blockers[0]).toMatchObject({ paused_by: 'alice', reason: 'INC-9', source: 'parent', message: "paused by alice: INC-9 (via parent Cluster 'c1')" });
    expect(blockers[1]).toMatchObject({ held_by_pause: true });
  });

  it('dependents (count and ids), referrers, dead letters and a timeout', () => {
    const blockers = finalizingBlockers(
      base({
        required_adapters: [],
        child_record_count: 2,
        child_ids: ['n1', 'n2'],
        live_referrers: [{ id: 'r1', kind: 'Cluster', name: 'consumer' }],
        deletion_timeout_seconds: 30,
        dead_letters: [{ queue: 'adapter-run.validation', id: 'validation.cluster-x.gen-2', attempts: 1, error: 'Forbidden', failed_time: T }],
      }),
    );
    expect(blockers.map((b) => b.type)).toEqual(['DeadLettered', 'InUse', 'DependentsRemaining', 'TimedOut']);
    expect(blockers[1]).toMatchObject({ message: "in use by Cluster 'consumer'", referrers: [{ id: 'r1' }] });
    expect(blockers[2]).toMatchObject({ count: 2, ids: ['n1', 'n2'] });
    expect(blockers[3]).toMatchObject({ since: '2026-12-01T10:00:30.000Z', timeout_seconds: 30 });
  });

  it('before the timeout there is no TimedOut blocker', () => {
    expect(finalizingBlockers(base({ required_adapters: [], deletion_timeout_seconds: 600 }))).toEqual([]);
  });

  it('reads DeletionBlocked reasons from conditions generically (InUse, DependencyCycle, any newer one)', () => {
    const cond = (reason: string, message: string) => ({
      type: 'DeletionBlocked', status: 'True' as const, reason, message, observed_generation: 2, created_time: T, last_updated_time: T, last_transition_time: T,
    });
    const blockers = finalizingBlockers(
      base({
        required_adapters: [],
        child_record_count: 1,
        child_ids: ['n1'],
        conditions: [cond('DependentsExist', '1 dependent'), cond('InUse', 'referenced by a'), cond('DependencyCycle', 'a → b → a'), cond('QuotaHold', 'held')],
      }),
    );
    expect(blockers).toEqual([
      { type: 'InUse', message: 'referenced by a', referrers: [] },
      { type: 'DependencyCycle', message: 'a → b → a' },
      { type: 'DeletionBlocked', reason: 'QuotaHold', message: 'held' },
      { type: 'DependentsRemaining', message: '1 dependent resource(s) still exist', count: 1, ids: ['n1'] },
    ]);
  });
});
