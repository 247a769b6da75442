import type { LoopStatus } from '@decom/event-store';
import type { ProbeResult } from '@decom/health';
import { readinessReport } from './readiness.js';

const status = (name: string, state: LoopStatus['state']): LoopStatus => ({ name, state, since: '2026-01-01T00:00:00.000Z', restarts: 0 });
const since = '2026-01-01T00:00:00.000Z';
const up = (dependency: ProbeResult['dependency'], detail?: Record<string, unknown>): ProbeResult => ({
  dependency,
  status: 'up',
  since,
  checked_at: since,
  affects_readiness: true,
  ...(detail ? { detail } : {}),
});
const down = (dependency: ProbeResult['dependency'], reason: string, affects = true): ProbeResult => ({
  dependency,
  status: 'down',
  reason,
  since,
  checked_at: since,
  affects_readiness: affects,
});
const sqlite = up('sqlite', { head_position: 3 });

describe('readinessReport (from cached probe results)', () => {
  it('is ready when every dependency is up, every loop runs within the lag bound and writes are accepted', () => {
    const report = readinessReport({
      dependencies: () => [sqlite],
      eventStore: 'sqlite',
      loops: [{ status: () => status('projections', 'running'), position: () => 3 }],
      writeRefusal: () => undefined,
    });
    expect(report).toEqual({
      status: 'ready',
      failing: [],
      checks: {
        event_store: { status: 'up', head_position: 3 },
        dependencies: [sqlite],
        loops: [{ ...status('projections', 'running'), lag_events: 0, ready: true }],
      },
      writes: { accepted: true },
      max_lag_events: 1000,
    });
  });

  it('lists the adapter watches and Kubernetes as information only: either down leaves the process ready', () => {
    const watch = {
      name: 'v1 ConfigMap (all namespaces)',
      label_selector: 'decom.io/managed-by in (validation)',
      state: 'retrying' as const,
      since,
      error: '403 Forbidden',
      restarts: 4,
      lists: 1,
      events: 0,
    };
    const report = readinessReport({
      dependencies: () => [sqlite, down('kubernetes', 'connect ECONNREFUSED', false)],
      eventStore: 'sqlite',
      loops: [{ status: () => status('projections', 'running'), position: () => 3 }],
      writeRefusal: () => undefined,
      watches: () => [watch],
    });
    expect(report.status).toBe('ready');
    expect((report['checks'] as { kube_watches: unknown[] }).kube_watches).toEqual([watch]);
    const none = readinessReport({
      dependencies: () => [sqlite],
      eventStore: 'sqlite',
      loops: [],
      writeRefusal: () => undefined,
      watches: () => [],
    });
    expect(none['checks']).not.toHaveProperty('kube_watches');
  });

  it('names each failing dependency with reason and since: Redis with another eviction policy, the JWKS', () => {
    const policy = 'maxmemory-policy is allkeys-lru, BullMQ needs noeviction (jobs may be evicted)';
    const report = readinessReport({
      dependencies: () => [
        sqlite,
        down('redis', policy),
        down('jwks', 'keys of issuer x cannot be loaded and none are cached: fetch failed'),
      ],
      eventStore: 'sqlite',
      loops: [],
      writeRefusal: () => undefined,
    });
    expect(report).toMatchObject({
      status: 'not_ready',
      failing: [
        { dependency: 'redis', status: 'down', reason: policy, since },
        { dependency: 'jwks', status: 'down', reason: expect.stringContaining('cannot be loaded'), since },
      ],
      checks: { job_queue: { status: 'down', error: policy, since } },
    });
  });

  it('is not ready when a loop recovers, lags beyond the bound, or writes are refused; the JSON names why', () => {
    const lagging = readinessReport({
      dependencies: () => [sqlite],
      eventStore: 'sqlite',
      loops: [
        { status: () => status('projections', 'running'), position: () => 0 },
        { status: () => ({ ...status('dispatch', 'recovering'), error: 'Connection terminated unexpectedly' }), position: () => 3 },
      ],
      writeRefusal: () => 'the read models are catching up after start (position 0 of 3)',
      maxLagEvents: 2,
    });
    expect(lagging).toMatchObject({
      status: 'not_ready',
      checks: {
        loops: [
          { name: 'projections', lag_events: 3, ready: false },
          { name: 'dispatch', state: 'recovering', error: 'Connection terminated unexpectedly', ready: false },
        ],
      },
      writes: { accepted: false, reason: 'the read models are catching up after start (position 0 of 3)' },
    });
  });

  it('reports a store whose probe failed as down, and its loops without a lag', () => {
    const report = readinessReport({
      dependencies: () => [down('postgres', 'connect ECONNREFUSED 127.0.0.1:5432')],
      eventStore: 'postgres',
      loops: [{ status: () => status('projections', 'running'), position: () => 3 }],
      writeRefusal: () => undefined,
    });
    expect(report).toMatchObject({
      status: 'not_ready',
      failing: [{ dependency: 'postgres', reason: 'connect ECONNREFUSED 127.0.0.1:5432' }],
      checks: {
        event_store: { status: 'down', error: 'connect ECONNREFUSED 127.0.0.1:5432' },
        loops: [{ name: 'projections', ready: false }],
      },
    });
    expect((report['checks'] as { loops: object[] }).loops[0]).not.toHaveProperty('lag_events');
  });
});
