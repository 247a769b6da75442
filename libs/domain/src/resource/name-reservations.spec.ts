import { nameReservationKey, nameReservationsOf } from './name-reservations.js';
import { fold } from './evolve.js';
import type { ResourceEvent } from './resource.events.js';

const created = (id: string, name: string, owner?: { id: string; kind: string }): ResourceEvent => ({
  type: 'ResourceCreated',
  data: {
    id,
    kind: owner ? 'NodePool' : 'Cluster',
    name,
    spec: {},
    labels: {},
    ...(owner ? { owner_references: owner } : {}),
    generation: 1,
    created_time: '2026-01-01T00:00:00Z',
    created_by: 'alice',
  },
});

describe('name reservations', () => {
  it('keys have a tenant slot, the kind, the parent and the name', () => {
    expect(nameReservationKey({ kind: 'Cluster', name: 'c1' })).toBe('name/-/Cluster/-/c1');
    expect(nameReservationKey({ kind: 'NodePool', name: 'p', parentId: 'c', tenant: 't1' })).toBe('name/t1/NodePool/c/p');
  });

  it('a top-level create reserves its name; a child create reserves nothing (its tree stream decides)', () => {
    expect(nameReservationsOf([created('c', 'c1')], fold([]))).toEqual({
      reserve: [{ key: 'name/-/Cluster/-/c1', holder: 'c' }],
      release: [],
    });
    const tree = fold([created('c', 'c1')]);
    expect(nameReservationsOf([created('p', 'p1', { id: 'c', kind: 'Cluster' })], tree)).toEqual({ reserve: [], release: [] });
  });

  it('the hard delete of a top-level resource releases its name', () => {
    const tree = fold([created('c', 'c1'), created('p', 'p1', { id: 'c', kind: 'Cluster' })]);
    const hardDeleted = (id: string, owner?: { id: string; kind: string }): ResourceEvent => ({
      type: 'HardDeleted',
      data: {
        id,
        kind: owner ? 'NodePool' : 'Cluster',
        ...(owner ? { owner_references: owner } : {}),
        hard_deleted_time: '2026-01-02T00:00:00Z',
        cause: 'Reconciled',
      },
    });
    expect(nameReservationsOf([hardDeleted('p', { id: 'c', kind: 'Cluster' }), hardDeleted('c')], tree)).toEqual({
      reserve: [],
      release: ['name/-/Cluster/-/c1'],
    });
  });
});
