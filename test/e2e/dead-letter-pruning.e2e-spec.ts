/**
 * Dead letters of finished work are pruned (dead-letter-pruner.ts), on both queue backends: the embedded
 * engine with the shipped adapters and the bundled Kubernetes server, whose fault injector plays an RBAC 403
 * so a deletion's adapter run dead-letters for real. Once the fault is fixed, a sweep re-runs the adapter and
 * the cluster is hard-deleted: the engine's periodic pruner removes the stale letter (one info line, the
 * counter, the dead-letter gauge back down) and keeps the letter of a deletion that is still failing.
 * BullMQ runs against REDIS_URL (or a throw-away redis-server) under its own prefix, deleted afterwards.
 */
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { DemoApi, eventually } from '../../apps/cli/src/demo/api-client.js';
import { scrape, sampleValue } from '../support/prometheus-text.js';
import { dropRedisPrefix, useRedis, type RedisForTests } from '../support/redis.js';
import { loggerInto } from './support/json-log-lines.js';
import { startTestEngine, type EngineFixture } from './engine-fixture.js';

describe.each([['in-process'], ['BullMQ']])('dead letters of finished work are pruned (%s queue)', (backend) => {
  let fixture: EngineFixture;
  let api: DemoApi;
  let redis: RedisForTests | undefined;
  const prefix = `decom-test-prune-${randomUUID()}`;
  const lines: Record<string, unknown>[] = [];

  beforeAll(async () => {
    if (backend === 'BullMQ') redis = await useRedis();
    fixture = await startTestEngine({
      adaptersDir: resolve('config/adapters'),
      logger: loggerInto(lines),
      ...(redis && { env: { REDIS_URL: redis.url, DECOM_QUEUE_PREFIX: prefix } }),
    });
    api = new DemoApi(fixture.engine.url);
  }, 60_000);
  afterAll(async () => {
    await fixture?.stop();
    if (redis) await dropRedisPrefix(redis.url, prefix);
    await redis?.stop();
  });

  const reconciledCluster = async (name: string) => {
    const id: string = (await api.call('POST', '/clusters', { kind: 'Cluster', name, spec: {} })).body.id;
    await eventually(`${name} Reconciled`, async () =>
      (await api.get(`/clusters/${id}`)).body.status.conditions.some((c: any) => c.type === 'Reconciled' && c.status === 'True')
        ? true
        : undefined,
    );
    return id;
  };
  const lettersOf = async (id: string) => (await fixture.engine.queue.failed('adapter-run.validation')).filter((f) => f.id.includes(id));

  it('removes the letter of a cluster a sweep hard-deleted later; keeps the letter of a deletion still failing', async () => {
    const done = await reconciledCluster(`prune-done-${backend.toLowerCase()}`);
    const stuck = await reconciledCluster(`prune-stuck-${backend.toLowerCase()}`);
    const kube = fixture.engine.localKube!;
    const faults = [done, stuck].map((id) =>
      kube.faults.add({
        method: 'DELETE',
        kind: 'Namespace',
        name: id.toLowerCase(),
        status: 403,
        reason: 'Forbidden',
        message: 'RBAC: adapter may not delete',
      }),
    );
    try {
      for (const id of [done, stuck]) expect((await api.call('DELETE', `/clusters/${id}`)).status).toBe(202);
      const [letter] = await eventually('both dead letters', async () => {
        const both = [...(await lettersOf(done)), ...(await lettersOf(stuck))];
        return both.some((f) => f.id.includes(done)) && both.some((f) => f.id.includes(stuck)) ? both : undefined;
      });
      expect(letter!.id).toContain(done);
      // Nothing is done yet: a pass keeps both (deletions pending).
      expect(await fixture.engine.deadLetterPruner.pruneOnce()).toEqual([]);

      // RBAC fixed for one cluster: a sweep re-runs its adapter (a new job id) and the cluster is hard-deleted.
      faults[0]!.remove();
      await eventually(
        'hard deleted by a sweep',
        async () => ((await api.get(`/clusters/${done}`)).status === 404 ? true : undefined),
        40_000,
      );
      // The engine's own pass (every sweep interval, 2 s here) removes the stale letter.
      await eventually('the stale letter pruned', async () => ((await lettersOf(done)).length === 0 ? true : undefined), 20_000);
      // One line per pruned letter (a sweep before the fix may have dead-lettered another run of it too).
      const pruned = lines.filter((l) => l['msg'] === 'dead letter pruned: its work is done');
      expect(pruned.map((l) => l['job'])).toContain(letter!.id);
      for (const line of pruned)
        expect(line).toEqual(
          expect.objectContaining({
            level: 30,
            queue: 'adapter-run.validation',
            job: expect.stringContaining(done),
            resource_id: done,
            reason: 'HardDeleted',
          }),
        );
      const samples = await scrape(fixture.engine.metricsUrl);
      expect(sampleValue(samples, 'decom_dead_letters_pruned_total', { queue: 'adapter-run.validation', reason: 'HardDeleted' })).toBe(
        pruned.length,
      );

      // The still-failing deletion keeps its letter(s), also through further passes, and the gauge counts them.
      const kept = await lettersOf(stuck);
      expect(kept.length).toBeGreaterThan(0);
      expect(await fixture.engine.deadLetterPruner.pruneOnce()).toEqual([]);
      expect((await lettersOf(stuck)).map((f) => f.id)).toEqual(expect.arrayContaining(kept.map((f) => f.id)));
      // The stuck deletion keeps failing meanwhile: the gauge counts the letters at its scrape, between two reads.
      const before = (await fixture.engine.queue.failed('adapter-run.validation')).length;
      const gauge = sampleValue(await scrape(fixture.engine.metricsUrl), 'decom_queue_dead_letters', { queue: 'adapter-run.validation' });
      const after = (await fixture.engine.queue.failed('adapter-run.validation')).length;
      expect(gauge).toBeGreaterThanOrEqual(before);
      expect(gauge).toBeLessThanOrEqual(after);
      expect((await fixture.engine.queue.failed()).some((f) => f.id.includes(done))).toBe(false);
    } finally {
      for (const fault of faults) fault.remove();
    }
  }, 120_000);

  it('keeps the letter of a live cluster whose Job create keeps failing, although it shows Reconciled=True (its Available does not depend on the Job)', async () => {
    const kube = fixture.engine.localKube!;
    const fault = kube.faults.add({
      method: 'POST',
      kind: 'Job',
      status: 403,
      reason: 'Forbidden',
      message: 'RBAC: adapter may not create jobs',
    });
    try {
      const id: string = (await api.call('POST', '/clusters', { kind: 'Cluster', name: `prune-live-${backend.toLowerCase()}`, spec: {} }))
        .body.id;
      const letters = await eventually(
        'a dead letter',
        async () => {
          const found = await lettersOf(id);
          return found.length > 0 ? found : undefined;
        },
        60_000,
      );
      const cluster = (await api.get(`/clusters/${id}`)).body;
      expect(cluster.status.conditions).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'Reconciled', status: 'True' })]));
      // A pruning pass run here (the code of the engine's own passes every 2 s; it may prune an earlier test's
      // letters): the failure is real, this cluster's letter stays.
      expect((await fixture.engine.deadLetterPruner.pruneOnce()).filter((pruned) => pruned.resourceId === id)).toEqual([]);
      expect((await lettersOf(id)).map((f) => f.id)).toEqual(expect.arrayContaining(letters.map((f) => f.id)));
    } finally {
      fault.remove();
    }
  }, 120_000);
});
