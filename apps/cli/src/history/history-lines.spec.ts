import { historyLine, keyFields } from './history-lines.js';

describe('decom history lines', () => {
  it('shows time, revision, type, caller and the key fields of each event type', () => {
    expect(
      historyLine({
        position: 12,
        revision: 3,
        type: 'DeletionRequested',
        recorded_time: '2026-11-29T10:00:00.123Z',
        caller: 'operator@example.com',
        data: {
          id: 'np1',
          kind: 'NodePool',
          generation: 2,
          deleted_time: '2026-11-29T10:00:00.120Z',
          deleted_by: 'operator@example.com',
          cascaded_from: 'c1',
          deletion_policy: 'Delete',
        },
      }),
    ).toBe(
      '2026-11-29T10:00:00.123Z  #3    DeletionRequested       operator@example.com      generation=2  cascaded_from=c1  deletion_policy=Delete',
    );
  });

  it.each([
    [
      'AdapterStatusReported',
      {
        id: 'c1',
        status: {
          adapter: 'validation',
          observed_generation: 2,
          conditions: [
            { type: 'Available', status: 'False' },
            { type: 'Finalized', status: 'True' },
          ],
        },
      },
      ['adapter=validation', 'observed_generation=2', 'Available=False', 'Finalized=True'],
    ],
    [
      'ForceDeleted',
      {
        id: 'c1',
        kind: 'Cluster',
        name: 'stuck-1',
        generation: 2,
        reason: 'INC-1: adapter gone',
        subresources: [{ kind: 'NodePool', name: 'a' }],
      },
      ['kind=Cluster', 'name=stuck-1', 'generation=2', 'reason="INC-1: adapter gone"', 'subresources=1'],
    ],
    ['HardDeleted', { id: 'c1', kind: 'Cluster', cause: 'Reconciled', hard_deleted_time: 't' }, ['kind=Cluster', 'cause=Reconciled']],
    ['SomethingNew', { id: 'c1', a: 1, b: 'two words' }, ['a=1', 'b="two words"']],
    [
      'DeletionProtectionChanged',
      { id: 'c1', kind: 'Cluster', deletion_protection: false, caller: 'root', reason: 'CHG-42 retire', changed_time: 't' },
      ['deletion_protection=false', 'reason="CHG-42 retire"'],
    ],
    [
      'AdapterFinalized',
      { id: 'c1', adapter: 'dns', observed_generation: 2, finalized_time: 't', forced: true, caller: 'root', reason: 'zone gone' },
      ['adapter=dns', 'observed_generation=2', 'forced=true', 'reason="zone gone"'],
    ],
    [
      'DeletionRequested',
      { id: 'c1', generation: 2, deletion_policy: 'Delete', deletion_budget_override: { caller: 'root', reason: 'evacuation' } },
      ['generation=2', 'deletion_policy=Delete', 'budget_override=evacuation'],
    ],
    [
      'LeftoverObjectsFound',
      {
        id: 'c1',
        kind: 'Cluster',
        objects: [{ adapter: 'validation', apiVersion: 'v1', kind: 'Namespace', name: 'c1', terminating: true }],
        unverified: [{ adapter: 'dns', reason: 'connect ECONNREFUSED' }],
        checked_time: 't',
      },
      ['leftover="Namespace c1 (terminating)"', 'unverified=dns'],
    ],
  ])('%s', (type, data, fields) => {
    expect(keyFields(type, data)).toEqual(fields);
  });

  it('marks a system event without a caller with a dash', () => {
    const line = historyLine({
      position: 1,
      revision: 0,
      type: 'HardDeleted',
      recorded_time: 't',
      data: { kind: 'Cluster', cause: 'Reconciled' },
    });
    expect(line.split(/\s{2,}/)).toEqual(['t', '#0', 'HardDeleted', '-', 'kind=Cluster', 'cause=Reconciled']);
  });
});
