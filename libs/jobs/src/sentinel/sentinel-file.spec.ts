/**
 * HyperFleet Sentinel config files load unchanged (hyperfleet-sentinel `docs/config.md`): one file per resource type,
 * or a directory of them; `resource_selector`, `poll_interval` and `message_data` act on the sweep.
 */
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KindRegistry } from '@decom/domain';
import { InProcessJobQueue } from '../in-process-job-queue.js';
import type { AdapterRunJob } from '../job-names.js';
import type { JobQueue } from '../job-queue.port.js';
import { Sweeper, type SweptResource } from '../sweeper.js';
import { loadSentinelConfig, parseSentinelConfig, SentinelConfigError } from './sentinel-config.loader.js';

const SHIPPED = fileURLToPath(new URL('./testdata/clusters-sentinel.yaml', import.meta.url));
const PLURALS = ['clusters', 'nodepools'];
const NOW = Date.parse('2026-11-29T12:00:00Z');
const kinds = new KindRegistry([
  { kind: 'Cluster', plural: 'clusters', required_adapters: ['validation'] },
  { kind: 'NodePool', plural: 'nodepools', parent_kind: 'Cluster', required_adapters: ['np-configmap'] },
]);

const cluster = (id: string, shard: string): SweptResource =>
  ({
    id,
    kind: 'Cluster',
    href: `/api/hyperfleet/v1/clusters/${id}`,
    generation: 2,
    labels: { shard },
    spec: { region: 'eu' },
    status: {
      conditions: [
        { type: 'Reconciled', status: 'False', observed_generation: 1, last_updated_time: new Date(NOW - 60_000).toISOString() },
      ],
    },
  }) as unknown as SweptResource;

describe('HyperFleet Sentinel config files', () => {
  it('a shipped file loads unchanged: its rule, selector, poll interval and message data', async () => {
    const rules = await loadSentinelConfig(SHIPPED, PLURALS);
    expect(rules.byPlural.has('clusters')).toBe(true);
    const options = rules.optionsFor('clusters');
    expect(options.selector).toEqual([{ label: 'shard', value: '1' }]);
    expect(options.pollIntervalMs).toBe(5000);
    expect(options.messageData?.shape(cluster('c1', '1') as unknown as Record<string, unknown>, new Date(NOW))).toEqual({
      id: 'c1',
      kind: 'Cluster',
      href: '/api/hyperfleet/v1/clusters/c1',
      generation: 2,
      region: 'eu',
      meta: { shard: '1' },
    });
    expect(rules.optionsFor('nodepools')).toEqual({ selector: [] });
  });

  it('DECOM_SENTINEL_FILE may name a directory: one file per resource type, duplicates named', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'decom-sentinels-'));
    copyFileSync(SHIPPED, join(dir, 'clusters.yaml'));
    writeFileSync(join(dir, 'nodepools.yaml'), 'resource_type: nodepools\npoll_interval: 1m\nmessage_data:\n  id: resource.id\n');
    writeFileSync(join(dir, 'README.md'), 'not yaml');
    const rules = await loadSentinelConfig(dir, PLURALS);
    expect(rules.optionsFor('nodepools').pollIntervalMs).toBe(60_000);
    expect(rules.byPlural.has('nodepools')).toBe(true); // no message_decision: Sentinel's default rule
    writeFileSync(join(dir, 'again.yaml'), 'resource_type: clusters\n');
    // Files load in name order: again.yaml claims clusters first.
    await expect(loadSentinelConfig(dir, PLURALS)).rejects.toThrow(
      `${dir}/clusters.yaml:4:16 resource_type: "clusters" is listed twice (also in ${dir}/again.yaml)`,
    );
  });

  it('reports every problem as file:line:column', () => {
    const bad =
      'resource_type: clusters\npoll_interval: soon\nresource_selector:\n  - {label: shard}\nmessage_data:\n  id: resource.id +\nbroker: {}\n';
    let error: unknown;
    try {
      parseSentinelConfig(bad, 's.yaml', PLURALS);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SentinelConfigError);
    expect((error as Error).message.split('\n')).toEqual([
      's.yaml:2:16 poll_interval: must be a Go duration > 0 such as "5s", got "soon"',
      's.yaml:4:5 resource_selector[0].value: is required (a label value)',
      expect.stringMatching(/^s\.yaml:6:7 message_data\.id: /),
      's.yaml:7:1 broker: unknown field (allowed: sentinel, resource_type, poll_interval, resource_selector, clients, message_decision, message_data, log, debug_config, tracing_enabled)',
    ]);
  });

  it('the sweep honours the selector and message_data, and sweeps the kind at its poll interval', async () => {
    const inner = new InProcessJobQueue();
    const jobs: { id: string; job: AdapterRunJob }[] = [];
    const queue = {
      ...inner,
      epoch: () => inner.epoch(),
      enqueue: async (q: string, id: string, job: unknown, o?: object) => (
        jobs.push({ id, job: job as AdapterRunJob }),
        inner.enqueue(q, id, job, o)
      ),
    } as JobQueue;
    let now = NOW;
    const items = [cluster('in-shard', '1'), cluster('other-shard', '2')];
    const sweeper = new Sweeper(
      kinds,
      queue,
      { pageAfter: async ({ kind, after }) => (after ? [] : items.filter((r) => r.kind === kind)) },
      await loadSentinelConfig(SHIPPED, PLURALS),
      { intervalMs: 30_000 },
      () => now,
    );
    await sweeper.sweepOnce('rule');
    expect(jobs.map((j) => j.id)).toEqual([`validation.cluster-in-shard.gen-2.sweep-${Math.floor(NOW / 5000)}`]);
    expect(jobs[0]!.job.event).toMatchObject({
      type: 'com.redhat.hyperfleet.cluster.reconcile',
      data: { id: 'in-shard', kind: 'Cluster', generation: 2, region: 'eu', meta: { shard: '1' } },
    });
    // Timer-driven sweeps (no mode) skip the kind until its poll interval passed.
    now += 2000;
    await sweeper.sweepOnce();
    now += 4000;
    await sweeper.sweepOnce();
    expect(jobs.map((j) => j.id)).toHaveLength(2);
    // A recovery sweep still sees every resource (nobody else would recover the other shard).
    await sweeper.sweepOnce('recovery');
    expect(jobs.some((j) => j.id.includes('other-shard'))).toBe(true);
    await inner.close();
  });
});
