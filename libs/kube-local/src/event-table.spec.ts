import { eventTable, humanDuration, wantsTable } from './event-table.js';

describe('the events table kubectl prints', () => {
  it.each([
    [5_000, '5s'],
    [119_000, '119s'],
    [125_000, '2m5s'],
    [600_000, '10m'],
    [3 * 3600_000 + 60_000, '3h1m'],
    [30 * 3600_000, '30h'],
    [72 * 3600_000, '3d'],
  ])('%d ms is %s', (ms, text) => expect(humanDuration(ms)).toBe(text));

  it('answers only a meta.k8s.io/v1 Table request', () => {
    expect(
      wantsTable('application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json'),
    ).toBe(true);
    expect(wantsTable('application/json')).toBe(false);
    expect(wantsTable('application/json;as=Table;v=v1beta1;g=meta.k8s.io')).toBe(false);
  });

  it('has kube-apiserver columns and one row per event', () => {
    const list = {
      apiVersion: 'v1',
      kind: 'EventList',
      metadata: { resourceVersion: '7' },
      items: [
        {
          metadata: { name: 'cm.1', namespace: 'ns' },
          involvedObject: { kind: 'ConfigMap', name: 'cm' },
          source: { component: 'kube-apiserver' },
          type: 'Normal',
          reason: 'WaitingForFinalizers',
          message: 'waits',
          count: 2,
          firstTimestamp: '2026-01-01T00:00:00Z',
          lastTimestamp: '2026-01-01T00:00:30Z',
        },
      ],
    };
    const table = eventTable(list, new Date('2026-01-01T00:01:00Z')) as {
      columnDefinitions: { name: string; priority: number }[];
      rows: { cells: string[] }[];
    };
    expect(table.columnDefinitions.filter((c) => c.priority === 0).map((c) => c.name)).toEqual([
      'Last Seen',
      'Type',
      'Reason',
      'Object',
      'Message',
    ]);
    expect(table.rows[0]!.cells).toEqual([
      '30s',
      'Normal',
      'WaitingForFinalizers',
      'configmap/cm',
      '',
      'kube-apiserver',
      'waits',
      '60s',
      '2',
      'cm.1',
    ]);
  });
});
