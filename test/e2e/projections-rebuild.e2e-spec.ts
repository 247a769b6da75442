/**
 * `decom projections rebuild` yields exactly the rows the live projection wrote: run the deletion flows
 * through HTTP, snapshot every read-model table, damage them, rebuild through the CLI command, compare.
 * On the embedded (SQLite) and the PostgreSQL profile.
 */
import { rm } from 'node:fs/promises';
import { PassThrough } from 'node:stream';
import { resolve } from 'node:path';
import { Command } from 'commander';
import { loadAppConfig, loadEntitiesConfig, type AppConfig } from '@decom/config';
import { KindRegistry } from '@decom/domain';
import { schemaTables, type ReadModelQueries } from '@decom/projections';
import { DemoApi, eventually } from '../../apps/cli/src/demo/api-client.js';
import { registerProjectionsCommand } from '../../apps/cli/src/commands/projections.command.js';
import { createProjections, openStorage, rebuildProjections } from '@decom/api';
import { usePostgres, type PostgresForTests } from '../support/postgres.js';
import { startTestEngine } from './engine-fixture.js';
import { statusReport, AVAILABLE, FINALIZED, UNHEALTHY } from '../support/status-reports.js';

const report = statusReport;

/**
 * Every flow the read models know: create, patch, statuses, DELETE + cascade, hard delete, force delete,
 * deletion protection set and cleared, one adapter abandoned.
 */
async function runFlows(api: DemoApi, settle: () => Promise<void>): Promise<void> {
  const post = async (path: string, body: unknown) => (await api.call('POST', path, body)).body;
  const kept = await post('/clusters', { kind: 'Cluster', name: 'kept', spec: { region: 'eu' }, labels: { team: 'a' } });
  await post(`/clusters/${kept.id}/nodepools`, { kind: 'NodePool', name: 'kept-pool', spec: {} });
  await api.call('PATCH', `/clusters/${kept.id}`, { spec: { region: 'us' } });
  await api.call('PUT', `/clusters/${kept.id}/statuses`, report('validation', 2, AVAILABLE));

  const gone = await post('/clusters', { kind: 'Cluster', name: 'gone', spec: {} });
  const gonePool = await post(`/clusters/${gone.id}/nodepools`, { kind: 'NodePool', name: 'gone-pool', spec: {} });
  await api.call('DELETE', `/clusters/${gone.id}`);
  await api.call('PUT', `/clusters/${gone.id}/statuses`, report('validation', 2, FINALIZED));
  await api.call('PUT', `/clusters/${gone.id}/nodepools/${gonePool.id}/statuses`, report('np-configmap', 2, FINALIZED));
  await eventually('hard delete', async () => ((await api.get(`/clusters/${gone.id}`)).status === 404 ? true : undefined));

  const stuck = await post('/clusters', { kind: 'Cluster', name: 'stuck', spec: {} });
  await post(`/clusters/${stuck.id}/nodepools`, { kind: 'NodePool', name: 'stuck-pool', spec: {} });
  await api.call('DELETE', `/clusters/${stuck.id}`);
  await api.call('PUT', `/clusters/${stuck.id}/statuses`, report('validation', 2, UNHEALTHY));
  await api.call('POST', `/clusters/${stuck.id}/force-delete`, { reason: 'INC-7' });

  const waiting = await post('/clusters', { kind: 'Cluster', name: 'waiting', spec: {} });
  await api.call('DELETE', `/clusters/${waiting.id}`);
  await api.call('PUT', `/clusters/${waiting.id}/statuses`, report('validation', 1, FINALIZED)); // stale: discarded or ignored

  const guarded = await post('/clusters', {
    kind: 'Cluster',
    name: 'guarded',
    spec: {},
    deletion_protection: true,
    deletion_protection_reason: 'prod',
  });
  const guardedPool = await post(`/clusters/${guarded.id}/nodepools`, { kind: 'NodePool', name: 'guarded-pool', spec: {} });
  await api.call('PATCH', `/nodepools/${guardedPool.id}`, { deletion_protection: true });
  await api.call('PATCH', `/clusters/${guarded.id}`, { deletion_protection: false, deletion_protection_reason: 'retire' });

  const abandoned = await post('/clusters', { kind: 'Cluster', name: 'abandoned', spec: {} });
  await post(`/clusters/${abandoned.id}/nodepools`, { kind: 'NodePool', name: 'abandoned-pool', spec: {} });
  await api.call('DELETE', `/clusters/${abandoned.id}`);
  await api.call('POST', `/clusters/${abandoned.id}/adapters/validation/abandon`, { reason: 'INC-9' });
  await settle();
}

/** All rows of every read-model table plus the checkpoints, each table's rows sorted (order-free comparison). */
async function snapshot(db: ReadModelQueries, tables: readonly string[]): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const table of tables) out[table] = (await db.query(`SELECT * FROM ${table}`)).map((row) => JSON.stringify(row)).sort();
  return out;
}

describe.each(['sqlite', 'postgres'] as const)('projections rebuild on %s', (profile) => {
  let postgres: PostgresForTests | undefined;
  let schema: string | undefined;
  beforeAll(async () => {
    if (profile === 'postgres') {
      postgres = await usePostgres();
      schema = await postgres.newSchema();
    }
  });
  afterAll(async () => {
    if (schema) await postgres?.dropSchema(schema);
    await postgres?.stop();
  });

  it('rebuilds exactly the rows the live projection wrote, through the CLI command, with progress', async () => {
    const env: Record<string, string> =
      profile === 'postgres' ? { DECOM_EVENT_STORE: 'postgres', DATABASE_URL: postgres!.connectionString, DECOM_PG_SCHEMA: schema! } : {};
    const fixture = await startTestEngine({ env });
    const config: AppConfig = {
      ...loadAppConfig({ DECOM_DATA_DIR: fixture.dataDir, DECOM_ENTITIES_FILE: resolve('config/entities.yaml'), ...env }, process.cwd()),
      logLevel: 'silent',
    };
    try {
      await runFlows(new DemoApi(fixture.engine.url), () => fixture.engine.settle());
      const head = await fixture.engine.store.headPosition();
      await fixture.engine.close();

      const kinds = new KindRegistry(await loadEntitiesConfig(config.entitiesFile));
      const tables = [...createProjections(kinds).flatMap((projection) => schemaTables(projection.schema)), 'projection_checkpoints'];
      const storage = await openStorage(config);
      const live = await snapshot(storage.readModels, tables);
      expect(live['resources']!.length).toBe(7); // kept, kept-pool, waiting, guarded, guarded-pool, abandoned, abandoned-pool
      expect(live['resources']!.filter((row) => row.includes('"deletion_protection":"{')).map((row) => JSON.parse(row).name)).toEqual([
        'guarded-pool',
      ]);
      expect(live['adapter_statuses']!.some((row) => row.includes('AdapterAbandoned'))).toBe(true);
      expect(live['deletion_requests']!.length).toBe(4); // the DELETEd clusters gone, stuck, waiting, abandoned (not their pools)
      expect(live['resource_index']!.some((row) => row.includes('"hard_delete_cause":"ForceDeleted"'))).toBe(true);
      expect(live['finalizing']!.length).toBeGreaterThanOrEqual(1);
      // Damage the read models: the rebuild must not depend on what is there.
      await storage.readModels.transaction(async (tx) => {
        await tx.execute(`DELETE FROM resources WHERE name = ?`, ['kept']);
        await tx.execute(`UPDATE finalizing SET waiting_on = ?`, ['["junk"]']);
      });
      await storage.close();

      const lines: string[] = [];
      const program = new Command('decom').exitOverride();
      registerProjectionsCommand(program, { out: (line) => lines.push(line), barStream: new PassThrough(), loadConfig: () => config });
      await program.parseAsync(['node', 'decom', 'projections', 'rebuild', 'resource-view', '--batch-size', '7']);

      expect(lines).toEqual([expect.stringMatching(new RegExp(`^rebuilt resource-view up to position ${head} in \\d+\\.\\d s$`))]);
      const reopened = await openStorage(config);
      try {
        expect(await snapshot(reopened.readModels, tables)).toEqual(live);
      } finally {
        await reopened.close();
      }

      // The progress the bar draws: from 0 to the head, batch by batch, never backwards.
      const progress: Array<[number, number]> = [];
      await rebuildProjections(config, { batchSize: 10, onProgress: (done, total) => progress.push([done, total]) });
      expect(progress[0]).toEqual([0, head]);
      expect(progress.at(-1)).toEqual([head, head]);
      expect(progress.length).toBe(Math.ceil(head / 10) + 1);
      expect(progress.every(([done], index) => index === 0 || done > progress[index - 1]![0])).toBe(true);

      const unknown = new Command('decom').exitOverride();
      registerProjectionsCommand(unknown, { out: () => undefined, barStream: new PassThrough(), loadConfig: () => config });
      await expect(unknown.parseAsync(['node', 'decom', 'projections', 'rebuild', 'nope'])).rejects.toThrow(
        'unknown projection "nope"; known: resource-view',
      );
    } finally {
      await rm(fixture.dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
