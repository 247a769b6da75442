/**
 * P2 scaling: the embedded bulk deletion of orchestration.bench.ts (`decom start`: SQLite, in-process jobs,
 * the bundled Kubernetes server; the shipped adapters) at several sizes in the same run — 100, 1,000 and
 * 5,000 clusters × 2 nodepools (`--quick`: 4 and 12) — each on a fresh engine, every cluster provisioned
 * (Reconciled=True) before all are deleted at once. Target: the rate at the largest size ≥ 80 % of the rate at
 * the smallest (work per resource that grows with the number of resources shows here first). Besides the
 * rates: jobs, HTTP and Kubernetes requests and CPU per resource gone at each size.
 */
import { join } from 'node:path';
import { DemoApi } from '../../apps/cli/src/demo/api-client.js';
import type { BenchContext } from './support/context.js';
import { formatProfile } from './support/cpu-profile.js';
import { startDecom } from './support/decom.js';
import { fmt, loadAverage } from './support/util.js';
import { bulk, cpuPerResource, rateOf, workLine, workPerResource, type BulkResult } from './orchestration.bench.js';

const FULL_SIZES = [100, 1_000, 5_000] as const;
const QUICK_SIZES = [4, 12] as const;
/** The rate at the largest size over the rate at the smallest. */
const TARGET_RATIO = 0.8;

interface SizeFigures {
  readonly clusters: number;
  readonly result: BulkResult;
}

export default async function scalingBench(ctx: BenchContext): Promise<string> {
  const sizes = ctx.quick ? QUICK_SIZES : FULL_SIZES;
  const loadAtStart = loadAverage();
  const figures: SizeFigures[] = [];
  // `--profile`: where each engine's CPU went (top self-time functions), printed under the table.
  const profiles: string[] = [];
  for (const clusters of sizes) {
    ctx.log(`${fmt(clusters)} clusters × 2 nodepools: starting decom start`);
    const engine = await startDecom('start', {
      label: `decom start (P2 at ${clusters})`,
      dir: join(ctx.dir, `at-${clusters}`),
      profile: ctx.profile,
    });
    try {
      // Every size exactly: no cap on provisioning (the batches of 50 only bound the creates in flight); the deletion is capped
      // far above what it takes, so a capped size says the engine stalled.
      const result = await bulk(
        new DemoApi(engine.url),
        { bulkClusters: clusters, bulkBatch: 50, provisionCapS: 3_600, deleteCapS: 900 },
        ctx.log,
        [engine],
      );
      if (result.clusters !== clusters || result.capped)
        throw new Error(
          `bench: P2 at ${clusters}: ${result.clusters} provisioned, ${result.gone} of ${result.clusters * 3} gone in ${fmt(result.deleteSeconds)} s`,
        );
      figures.push({ clusters, result });
      ctx.log(`P2 at ${fmt(clusters)}: ${fmt(rateOf(result))} resources/s; ${workLine(result)}`);
    } finally {
      const { profile } = await engine.stop();
      if (profile) profiles.push(...formatProfile(engine.label, profile));
    }
  }
  const first = figures[0]!;
  const last = figures.at(-1)!;
  const ratio = rateOf(last.result) / rateOf(first.result);
  ctx.target({
    id: 'P2',
    measure: `bulk deletion, embedded, at ${fmt(last.clusters)} vs ${fmt(first.clusters)} clusters`,
    figure: `${fmt(rateOf(last.result))} resources/s`,
    ceiling: `${fmt(rateOf(first.result))} /s (at ${fmt(first.clusters)})`,
    ratio: `${Math.round(ratio * 100)} %`,
    target: `≥ ${TARGET_RATIO * 100} % of the rate at ${fmt(first.clusters)}`,
    met: ratio >= TARGET_RATIO,
  });
  return [
    '## P2 scaling: bulk deletion at several sizes',
    '',
    `The embedded P2 (\`decom start\`: SQLite, in-process jobs, bundled Kubernetes; shipped adapters) at ${sizes.map((n) => fmt(n)).join(', ')} clusters × 2 nodepools,`,
    'a fresh engine per size; every cluster provisioned before all are deleted (32 DELETEs in flight), the lists polled until every resource is gone.',
    `Load average when the scenario started: ${loadAtStart} (the box may be shared: compare ratios, not absolutes).`,
    '',
    '| clusters × nodepools | provisioning | deletion | resources/s | vs. smallest | jobs | retries | HTTP requests | Kubernetes requests | CPU per resource gone |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ...figures.map(({ clusters, result }) => {
      const [jobs, retries, http, kube] = workPerResource(result);
      return `| ${fmt(clusters)} × 2 | ${fmt(result.provisionSeconds, 1)} s | ${fmt(result.deleteSeconds, 1)} s | **${fmt(rateOf(result))}** | ${Math.round((rateOf(result) / rateOf(first.result)) * 100)} % | ${jobs} | ${retries} | ${http} | ${kube} | ${cpuPerResource(result)} |`;
    }),
    '',
    `- Target: the rate at ${fmt(last.clusters)} clusters ≥ ${TARGET_RATIO * 100} % of the rate at ${fmt(first.clusters)} (measured ${Math.round(ratio * 100)} %).`,
    "- Work columns are per resource gone during the deletion (jobs = adapter runs; HTTP = requests the API answered, the bench's list polls left out).",
    ...(profiles.length > 0 ? ['', 'Where the time goes (`--profile`, whole engine life: provisioning and deletion):', ...profiles] : []),
  ].join('\n');
}
