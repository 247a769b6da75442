import { NameAlreadyTaken } from '@decom/domain';
import { ConcurrencyConflict } from '@decom/event-store';
import { ProjectionWaitTimeout } from '@decom/projections';
import { mapError } from './error-map.js';
import { Problems } from './problem.js';

describe('error map: conflicts, lost connections and a read side behind', () => {
  it('a concurrency conflict is a 409 CNF-002 carrying { stream, expected, actual }', () => {
    expect(mapError(new ConcurrencyConflict('cluster-1', 4, 6))).toMatchObject({
      status: 409,
      code: 'HYPERFLEET-CNF-002',
      extensions: { conflict: { stream: 'cluster-1', expected: 4, actual: 6 } },
    });
  });

  it('a lost connection or a read side that is behind is a 503 SVC-001 with Retry-After', () => {
    for (const error of [Object.assign(new Error('terminating connection'), { code: '57P01' }), new ProjectionWaitTimeout(9, 3, 5000)]) {
      expect(mapError(error)).toMatchObject({ status: 503, code: 'HYPERFLEET-SVC-001', headers: { 'retry-after': '2' } });
      // The detail never carries the driver's message (hosts, ports).
      expect(mapError(error)!.detail).not.toMatch(/terminating|position/);
    }
    expect(mapError(Problems.unavailable('catching up'))).toMatchObject({
      status: 503,
      headers: { 'retry-after': '2' },
      detail: 'catching up',
    });
  });

  it('a name conflict names the holder', () => {
    expect(mapError(new NameAlreadyTaken('Cluster', 'c1', 'abc'))).toMatchObject({
      status: 409,
      code: 'HYPERFLEET-CNF-001',
      extensions: { id: 'abc' },
    });
    expect(mapError(Problems.nameTaken('taken', { id: 'abc', href: '/api/hyperfleet/v1/clusters/abc' }))).toMatchObject({
      extensions: { id: 'abc', href: '/api/hyperfleet/v1/clusters/abc' },
    });
  });
});
