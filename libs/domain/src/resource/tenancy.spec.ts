import { nameReservationsOf } from './name-reservations.js';
import { fold } from './evolve.js';
import { tenancyContains, tenancyKey } from './tenancy.js';
import type { ResourceEvent } from './resource.events.js';

const created = (id: string, tenant?: Record<string, string>): ResourceEvent => ({
  type: 'ResourceCreated',
  data: {
    id,
    kind: 'Cluster',
    name: 'c1',
    spec: {},
    labels: {},
    generation: 1,
    created_time: '2026-12-01T00:00:00Z',
    created_by: 'a',
    ...(tenant ? { tenant } : {}),
  },
});

describe('tenancy (HyperFleet §8.1)', () => {
  it("a resource is visible when its tenancy contains the caller's; null caller = unscoped", () => {
    expect(tenancyContains({ org: 'acme', project: 'web' }, { org: 'acme' })).toBe(true);
    expect(tenancyContains({ org: 'acme' }, { org: 'acme', project: 'web' })).toBe(false);
    expect(tenancyContains({ org: 'acme' }, { org: 'globex' })).toBe(false);
    expect(tenancyContains(undefined, { org: 'acme' })).toBe(false);
    expect(tenancyContains(undefined, null)).toBe(true);
  });

  it('keys are order-independent; names are reserved per tenant and released with the same key', () => {
    expect(tenancyKey({ project: 'web', org: 'acme' })).toBe('org=acme,project=web');
    expect(tenancyKey({})).toBeUndefined();
    const a = nameReservationsOf([created('a', { org: 'acme' })], fold([]));
    const b = nameReservationsOf([created('b', { org: 'globex' })], fold([]));
    const none = nameReservationsOf([created('c')], fold([]));
    expect(a.reserve[0]!.key).toBe('name/org=acme/Cluster/-/c1');
    expect(b.reserve[0]!.key).toBe('name/org=globex/Cluster/-/c1');
    expect(none.reserve[0]!.key).toBe('name/-/Cluster/-/c1');
    const state = fold([created('a', { org: 'acme' })]);
    const released = nameReservationsOf([{ type: 'HardDeleted', data: { id: 'a', kind: 'Cluster' } } as unknown as ResourceEvent], state);
    expect(released.release).toEqual(['name/org=acme/Cluster/-/c1']);
  });
});
