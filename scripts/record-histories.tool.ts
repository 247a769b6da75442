/**
 * A tool, not a test: `npm run record:histories` records the streams in test/fixtures/histories from real
 * runs of the engine (recorded streams are history: re-record only to add new ones, see that folder's README).
 * It runs under Jest for the same TypeScript transform and module aliases as the suites it feeds.
 * - the demo (shipped adapters, bundled Kubernetes): DELETE → ordered cleanup → bottom-up hard delete, and
 *   a stuck cluster force-deleted with its audit;
 * - status discards, through HTTP with the test playing the adapter: a future generation (204), a report
 *   without a mandatory condition (400), a stale Finalized after DELETE;
 * - the two-person rule: break-glass requests voided, rejected and approved (JWT callers; its own `it`, so
 *   `-t two-person` records only `break-glass.json`);
 * - the same create/delete/hard-delete stream in schema 1 (the first release's shapes: no `deletion_policy`, no
 *   `DeletionStarted`, no `schema_version`), for the upcasters.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse, stringify } from 'yaml';
import { serverConfigYaml } from '../test/support/server-config.js';
import { TestIssuer } from '../test/support/test-issuer.js';
import { execFileSync } from 'node:child_process';
import { loadEntitiesConfig } from '@decom/config';
import { KindRegistry, RESOURCE_EVENT_SCHEMA_VERSION } from '@decom/domain';
import type { RecordedEvent } from '@decom/event-store';
import { DemoApi } from '../apps/cli/src/demo/api-client.js';
import { runDemoScenario } from '../apps/cli/src/demo/demo-scenario.js';
import { startTestEngine } from '../test/e2e/engine-fixture.js';
import { replayHistory, type HistoryFixture } from '../test/replay/history-fixture.js';
import { statusReport } from '../test/support/status-reports.js';

const folder = resolve('test/fixtures/histories');

const report = statusReport;

describe('record histories', () => {
  it('records the demo streams, status discards, protection and abandon, and a schema-1 stream', async () => {
    const entities = await loadEntitiesConfig(resolve('config/entities.yaml'));
    const kinds = new KindRegistry(entities);
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const save = async (
      name: string,
      description: string,
      flow: string,
      events: readonly RecordedEvent[],
      schemaVersion = RESOURCE_EVENT_SCHEMA_VERSION,
    ) => {
      const fixture: HistoryFixture = {
        description,
        recorded: { with: `${flow} (Decom ${commit})`, at: new Date().toISOString(), schema_version: schemaVersion },
        kinds: entities,
        stream: events[0]!.stream,
        events,
        expected: await replayHistory(events, kinds),
      };
      await writeFile(resolve(folder, `${name}.json`), `${JSON.stringify(fixture, null, 2)}\n`);
    };

    const demo = await startTestEngine({ adaptersDir: resolve('config/adapters') });
    try {
      const run = await runDemoScenario(demo.engine.url, demo.engine.localKube!);
      await demo.engine.settle();
      const deleted = await demo.engine.store.readStream(`cluster-${run.clusterId}`);
      await save(
        'create-delete-hard-delete',
        'A cluster and two nodepools provisioned by the shipped adapters, DELETEd: cascade, ordered cleanup, Finalized, bottom-up hard delete.',
        'decom demo, step 1-4',
        deleted,
      );
      await save(
        'force-delete',
        'A cluster whose adapter reports Health=False after DELETE, force-deleted by an admin with a reason: audit, then hard delete.',
        'decom demo, force-delete steps',
        await demo.engine.store.readStream(`cluster-${run.stuckClusterId}`),
      );
      await save(
        'create-delete-hard-delete.schema-1',
        'The create-delete-hard-delete stream as schema 1 wrote it: DeletionRequested without deletion_policy, no DeletionStarted, no schema_version. Derived from the recorded stream by removing what schema 2 added.',
        'derived from create-delete-hard-delete',
        toSchema1(deleted),
        1,
      );
    } finally {
      await demo.stop();
    }

    const played = await startTestEngine();
    try {
      const api = new DemoApi(played.engine.url);
      const cluster = (await api.call('POST', '/clusters', { kind: 'Cluster', name: 'discards', spec: {} })).body;
      const accepted = { Applied: 'True', Available: 'True', Health: 'True', Finalized: 'False' };
      expect((await api.call('PUT', `/clusters/${cluster.id}/statuses`, report('validation', 1, accepted))).status).toBe(201);
      expect((await api.call('PUT', `/clusters/${cluster.id}/statuses`, report('validation', 7, accepted))).status).toBe(204);
      expect(
        (await api.call('PUT', `/clusters/${cluster.id}/statuses`, report('validation', 1, { Applied: 'True', Health: 'True' }))).status,
      ).toBe(400);
      await api.call('DELETE', `/clusters/${cluster.id}`);
      await api.call(
        'PUT',
        `/clusters/${cluster.id}/statuses`,
        report('validation', 1, { Applied: 'False', Available: 'False', Health: 'True', Finalized: 'True' }),
      );
      await played.engine.settle();
      await save(
        'status-discards',
        'A cluster whose adapter reports a future generation (discarded, 204), a report without Available (400, nothing recorded), then after DELETE a Finalized for generation 1 (stale: the cluster stays Finalizing).',
        'HTTP flow, test playing the validation adapter',
        await played.engine.store.readStream(`cluster-${cluster.id}`),
      );

      const guarded = (
        await api.call('POST', '/clusters', {
          kind: 'Cluster',
          name: 'rails',
          spec: {},
          deletion_protection: true,
          deletion_protection_reason: 'production',
        })
      ).body;
      const pool = (await api.call('POST', `/clusters/${guarded.id}/nodepools`, { kind: 'NodePool', name: 'rails-pool', spec: {} })).body;
      expect((await api.call('DELETE', `/clusters/${guarded.id}`)).status).toBe(409);
      expect(
        (await api.call('PATCH', `/clusters/${guarded.id}`, { deletion_protection: false, deletion_protection_reason: 'retire' })).status,
      ).toBe(200);
      expect((await api.call('DELETE', `/clusters/${guarded.id}`)).status).toBe(202);
      expect(
        (await api.call('POST', `/clusters/${guarded.id}/adapters/validation/abandon`, { reason: 'cluster API unreachable' })).status,
      ).toBe(200);
      const stuck = { Applied: 'False', Available: 'False', Health: 'False', Finalized: 'False' };
      expect((await api.call('PUT', `/clusters/${guarded.id}/statuses`, report('validation', 2, stuck))).status).toBe(204);
      await api.call(
        'PUT',
        `/nodepools/${pool.id}/statuses`,
        report('np-configmap', 2, { Applied: 'False', Available: 'False', Health: 'True', Finalized: 'True' }),
      );
      await played.engine.settle();
      await save(
        'protection-and-abandon',
        'A cluster created with deletion_protection (DELETE refused, nothing recorded), cleared with a reason, DELETEd; its validation adapter abandoned by an operator (forced AdapterFinalized), a late report of it discarded, the nodepool finalized: bottom-up hard delete.',
        'HTTP flow, test playing the adapters',
        await played.engine.store.readStream(`cluster-${guarded.id}`),
      );
    } finally {
      await played.stop();
    }
  }, 120_000);

  it('records the two-person rule stream (break-glass requests voided, rejected, approved)', async () => {
    const entities = await loadEntitiesConfig(resolve('config/entities.yaml'));
    const kinds = new KindRegistry(entities);
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const folderForConfig = await mkdtemp(join(tmpdir(), 'decom-record-break-glass-'));
    const issuer = await TestIssuer.start();
    const document = parse(
      serverConfigYaml(issuer, { identityClaim: 'email', authorization: { admins: ['alice@example.com', 'bob@example.com'] } }),
    ) as { authorization: Record<string, unknown> };
    document.authorization['break_glass'] = { approvals: 1 };
    await writeFile(join(folderForConfig, 'server.yaml'), stringify(document));
    const engine = await startTestEngine({ env: { DECOM_SERVER_CONFIG: join(folderForConfig, 'server.yaml') } });
    try {
      const call = async (identity: string, method: string, path: string, body?: unknown) => {
        const response = await fetch(`${engine.engine.url}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${await issuer.token(identity)}`,
            ...(body !== undefined && { 'content-type': 'application/json' }),
          },
          ...(body !== undefined && { body: JSON.stringify(body) }),
        });
        return (await response.json().catch(() => undefined)) as any;
      };
      const hf = '/api/hyperfleet/v1';
      const queue = '/api/decom/v1/break-glass-requests';
      const cluster = await call('operator@example.com', 'POST', `${hf}/clusters`, {
        kind: 'Cluster',
        name: 'two-person',
        spec: { size: 1 },
      });
      await call('alice@example.com', 'POST', `${hf}/clusters/${cluster.id}/pause`, { reason: 'investigating' });
      const unpause = await call('alice@example.com', 'POST', `${hf}/clusters/${cluster.id}/unpause`, { reason: 'done' });
      await call('operator@example.com', 'PATCH', `${hf}/clusters/${cluster.id}`, { spec: { size: 2 } });
      await call('bob@example.com', 'POST', `${queue}/${unpause.request_id}/approve`, {});
      await call('operator@example.com', 'DELETE', `${hf}/clusters/${cluster.id}`);
      const orphan = await call('alice@example.com', 'POST', `${hf}/clusters/${cluster.id}/force-orphan`, { reason: 'account closed' });
      await call('bob@example.com', 'POST', `${queue}/${orphan.request_id}/reject`, { reason: 'account being restored' });
      const force = await call('alice@example.com', 'POST', `${hf}/clusters/${cluster.id}/force-delete`, { reason: 'adapter stuck' });
      await call('bob@example.com', 'POST', `${queue}/${force.request_id}/approve`, { reason: 'checked' });
      const events = await engine.engine.store.readStream(`cluster-${cluster.id}`);
      const fixture: HistoryFixture = {
        description:
          'The two-person rule: an unpause request voided by a PATCH (generation moved), a force-orphan request rejected, a force-delete request approved by a second admin (ForceDeleted and HardDeleted in the same append).',
        recorded: {
          with: `break-glass requests through HTTP with JWT callers (Decom ${commit})`,
          at: new Date().toISOString(),
          schema_version: RESOURCE_EVENT_SCHEMA_VERSION,
        },
        kinds: entities,
        stream: events[0]!.stream,
        events,
        expected: await replayHistory(events, kinds),
      };
      await writeFile(resolve(folder, 'break-glass.json'), `${JSON.stringify(fixture, null, 2)}\n`);
    } finally {
      await engine.stop();
      await issuer.close();
      await rm(folderForConfig, { recursive: true, force: true });
    }
  }, 120_000);
});

/** Schema 1's shapes: what schema 2 added removed. */
function toSchema1(events: readonly RecordedEvent[]): RecordedEvent[] {
  return events
    .filter((event) => event.type !== 'DeletionStarted')
    .map((event, index) => {
      const { schema_version: _dropped, ...metadata } = event.metadata as Record<string, unknown>;
      const data = { ...(event.data as Record<string, unknown>) };
      if (event.type === 'DeletionRequested') delete data['deletion_policy'];
      return { ...event, revision: index, data, metadata };
    });
}
