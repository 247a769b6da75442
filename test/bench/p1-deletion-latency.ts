/**
 * Target P1, on its own: DELETE → GET 404 of a cluster with 2 nodepools and 3 ordered objects
 * (the shipped `validation` and `np-configmap` adapters), embedded profile (SQLite, in-process jobs, the
 * bundled local Kubernetes API server with its default `controllerDelayMs` 0), default timings.
 * Not a `*.bench.ts` (run.ts does not pick it up): `npm run build && node dist/test/bench/p1-deletion-latency.js [deletions] [inFlight]`.
 * Prints p50/p90/p99/max in ms, and this process's CPU time (user + system, harness included) per deletion: on a shared
 * box the latencies move with the load, the CPU per deletion much less. The clock stops at the first GET answering 404,
 * sent when the store records the cluster's HardDeleted (then polled every 10 ms while the read model catches up), so
 * the harness does not load the engine it measures with a GET every few milliseconds.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { loadAppConfig } from '@decom/config';
import { DemoApi } from '../../apps/cli/src/demo/api-client.js';
import { startEngine } from '../../apps/cli/src/engine/engine.js';

/**
 * The deletions alone in a V8 CPU profile (`P1_CPU_PROFILE=path-prefix`): `node --cpu-prof` would also
 * profile the start and the provisioning, which are not what P1 measures.
 */
async function startProfiler(): Promise<{ stopInto(path: string): Promise<void> }> {
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<any>((resolve, reject) => session.post(method, params ?? {}, (error, result) => (error ? reject(error) : resolve(result))));
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 200 });
  await post('Profiler.start');
  return {
    async stopInto(path) {
      const { profile } = await post('Profiler.stop');
      await writeFile(path, JSON.stringify(profile));
      session.disconnect();
    },
  };
}

const deletions = Number(process.argv[2] ?? 60);
const inFlight = Number(process.argv[3] ?? 1);
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const percentile = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function measure(watch: boolean): Promise<string> {
  const dataDir = await mkdtemp(join(tmpdir(), 'decom-p1-'));
  const config = {
    ...loadAppConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      DECOM_DATA_DIR: dataDir,
      DECOM_ADAPTERS_DIR: resolve('config/adapters'),
      DECOM_ENTITIES_FILE: resolve('config/entities.yaml'),
      DECOM_SENTINEL_FILE: resolve('config/sentinel.yaml'),
    }),
    logLevel: 'silent' as const,
  };
  const engine = await startEngine({ config, logger: pino({ level: 'silent' }), adapterWatch: watch });
  const api = new DemoApi(engine.url);
  try {
    const ids: string[] = [];
    for (let i = 0; i < deletions; i++) {
      const c = await api.call('POST', '/clusters', { kind: 'Cluster', name: `p1-${i}`, spec: {} });
      if (c.status !== 201) throw new Error(`create cluster: ${c.status}`);
      for (const np of ['np-a', 'np-b']) {
        const n = await api.call('POST', `/clusters/${c.body.id}/nodepools`, { kind: 'NodePool', name: np, spec: {} });
        if (n.status !== 201) throw new Error(`create nodepool: ${n.status}`);
      }
      ids.push(c.body.id as string);
    }
    await engine.settle();
    // The store's own feed says when a cluster was hard-deleted: then one GET (polled only while the read
    // model catches up). Polling GET all along would load the engine it measures (10 in flight × 100/s).
    const hardDeleted = new Map<string, () => void>();
    const seen = new Set<string>();
    const feed = engine.store.subscribeToAll(
      async (event) => {
        if (event.type !== 'HardDeleted' || !event.stream.startsWith('cluster-')) return;
        const id = event.stream.slice('cluster-'.length);
        seen.add(id);
        hardDeleted.get(id)?.();
      },
      { afterPosition: await engine.store.headPosition() },
    );
    const gone = (id: string) => (seen.has(id) ? Promise.resolve() : new Promise<void>((resolve) => hardDeleted.set(id, resolve)));
    const latencies: number[] = [];
    const profiler = process.env.P1_CPU_PROFILE ? await startProfiler() : undefined;
    const cpu0 = process.cpuUsage();
    let next = 0;
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (next < ids.length) {
          const id = ids[next++]!;
          const started = performance.now();
          const answer = await api.call('DELETE', `/clusters/${id}`);
          if (answer.status !== 202) throw new Error(`DELETE ${answer.status}`);
          await gone(id);
          while ((await api.get(`/clusters/${id}`)).status !== 404) {
            if (performance.now() - started > 60_000) throw new Error(`cluster ${id} not gone after 60 s`);
            await sleep(10);
          }
          latencies.push(performance.now() - started);
        }
      }),
    );
    const cpu = process.cpuUsage(cpu0);
    if (profiler) await profiler.stopInto(`${process.env.P1_CPU_PROFILE}-${watch ? 'on' : 'off'}.cpuprofile`);
    await feed.close();
    latencies.sort((a, b) => a - b);
    const fmt = (n: number) => `${Math.round(n)} ms`;
    return `P1 DELETE → 404 (watch ${watch ? 'on ' : 'off'}), cluster + 2 nodepools, ${deletions} deletions, ${inFlight} in flight: p50 ${fmt(percentile(latencies, 50))}, p90 ${fmt(percentile(latencies, 90))}, p99 ${fmt(percentile(latencies, 99))}, max ${fmt(latencies.at(-1)!)}, cpu ${((cpu.user + cpu.system) / 1000 / deletions).toFixed(1)} ms per deletion`;
  } finally {
    await engine.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

const modes = (process.argv[4] ?? 'off,on').split(',');
for (const mode of modes) process.stdout.write(`${await measure(mode === 'on')}\n`);
