import { DependencyProbes, type DependencyProbe, type ProbeResult } from './dependency-probes.js';

/** A probe whose next answer the test sets: up, a rejection, or never settling. */
function switchable(dependency: DependencyProbe['dependency'], affectsReadiness = true) {
  let mode: 'up' | 'fail' | 'hang' = 'up';
  let calls = 0;
  const probe: DependencyProbe = {
    dependency,
    affectsReadiness,
    check: () => {
      calls += 1;
      if (mode === 'hang') return new Promise<void>(() => undefined);
      return mode === 'up' ? Promise.resolve() : Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379\nstack'));
    },
  };
  return { probe, set: (next: typeof mode) => void (mode = next), calls: () => calls };
}

describe('DependencyProbes', () => {
  it('starts unknown, then caches each result; failing() lists only what affects readiness', async () => {
    const redis = switchable('redis');
    const kube = switchable('kubernetes', false);
    const probes = new DependencyProbes([redis.probe, kube.probe], { timeoutMs: 50 });
    expect(probes.results().map((r) => [r.dependency, r.status, r.reason])).toEqual([
      ['redis', 'unknown', 'not probed yet'],
      ['kubernetes', 'unknown', 'not probed yet'],
    ]);
    redis.set('fail');
    kube.set('fail');
    await probes.probeOnce();
    expect(probes.result('redis')).toMatchObject({
      status: 'down',
      reason: 'connect ECONNREFUSED 127.0.0.1:6379',
      affects_readiness: true,
    });
    expect(probes.failing().map((r) => r.dependency)).toEqual(['redis']);
    redis.set('up');
    await probes.probeOnce();
    expect(probes.result('redis')).toMatchObject({ status: 'up' });
    expect(probes.result('redis')).not.toHaveProperty('reason');
  });

  it('a probe that does not answer is down after its timeout and is not started again while in flight', async () => {
    const redis = switchable('redis');
    redis.set('hang');
    const probes = new DependencyProbes([redis.probe], { timeoutMs: 30 });
    const started = Date.now();
    await probes.probeOnce();
    expect(Date.now() - started).toBeLessThan(500);
    expect(probes.result('redis')).toMatchObject({ status: 'down', reason: 'no answer within 30 ms' });
    await new Promise((resolve) => setTimeout(resolve, 40));
    await Promise.race([probes.probeOnce(), new Promise((resolve) => setTimeout(resolve, 50))]);
    expect(redis.calls()).toBe(1);
  });

  it('reports each change once (since stays while the state holds) and probes in the background', async () => {
    const redis = switchable('redis');
    const changes: [ProbeResult['status'], ProbeResult['status']][] = [];
    const probes = new DependencyProbes([redis.probe], {
      intervalMs: 10,
      timeoutMs: 50,
      onChange: (current, previous) => changes.push([previous.status, current.status]),
    });
    redis.set('fail');
    probes.start();
    await new Promise((resolve) => setTimeout(resolve, 60));
    const firstSince = probes.result('redis')!.since;
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(probes.result('redis')!.since).toBe(firstSince);
    redis.set('up');
    await new Promise((resolve) => setTimeout(resolve, 60));
    probes.stop();
    expect(redis.calls()).toBeGreaterThan(3);
    expect(changes).toEqual([
      ['unknown', 'down'],
      ['down', 'up'],
    ]);
  });
});
