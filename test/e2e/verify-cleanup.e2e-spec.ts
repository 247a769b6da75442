/**
 * Verify before hard delete over HTTP (docs/policies.md): `decom api` with the shipped adapters' configs
 * (config/adapters: `validation` is hosted) and a Kubernetes server of the test's own, while the test plays a buggy
 * `validation` that reports `Finalized=True` with its ConfigMap still there. The cluster stays Finalizing with a
 * `LeftoverObjects` blocker naming it (then terminating), `CleanupUnverified` while Kubernetes cannot list it,
 * and is hard-deleted by itself once the object is gone.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startLocalKube, type LocalKube } from '@decom/kube-local';
import { DemoApi, eventually } from '../../apps/cli/src/demo/api-client.js';
import { FINALIZED, statusReport } from '../support/status-reports.js';
import { startTestEngine, type EngineFixture } from './engine-fixture.js';
import { ensureBuilt } from './support/ensure-built.js';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium)
  console.warn(`skipping the stuck-deletions page check: ${CHROMIUM} is missing (apt-get install chromium; .ci/run does it)`);

/** The web UI's stuck-deletions page, in Debian's Chromium: the LeftoverObjects badge with the object's name. */
async function expectBadgeInUi(url: string, text: string): Promise<void> {
  ensureBuilt();
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1366, height: 800 } });
    await page.goto(`${url}/ui/#/login`);
    await page.getByLabel('Bearer token').fill('test-token');
    await page.getByLabel(/^Identity/).fill('alice@example.com');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Stuck deletions' }).waitFor();
    const badge = page.locator('[data-blocker="LeftoverObjects"]').filter({ hasText: text });
    await badge.waitFor({ timeout: 15_000 });
    expect(await badge.textContent()).toContain('leftover objects');
  } finally {
    await browser.close();
  }
}

describe('verify before hard delete (hosted adapters, ownership discovery)', () => {
  let dir: string;
  let kube: LocalKube;
  let fixture: EngineFixture;
  let api: DemoApi;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'decom-verify-'));
    kube = await startLocalKube();
    await writeFile(join(dir, 'kubeconfig.yaml'), kube.kubeconfigYaml());
    // Role api: the adapters' configs make them hosted, but none runs here; the test reports as `validation`.
    fixture = await startTestEngine({
      role: 'api',
      adaptersDir: resolve('config/adapters'),
      env: { KUBECONFIG: join(dir, 'kubeconfig.yaml') },
      sweep: { intervalMs: 500, debounceMs: 250 },
    });
    api = new DemoApi(fixture.engine.url);
  });
  afterAll(async () => {
    await fixture?.stop();
    await kube?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const finalizing = async (id: string) => {
    const body = (await (await fetch(`${fixture.engine.url}/api/decom/v1/finalizing`)).json()) as {
      items: { id: string; blockers: any[] }[];
    };
    return body.items.find((i) => i.id === id);
  };
  const blocker = (id: string, type: string, test: (b: any) => boolean = () => true) =>
    eventually(
      `a ${type} blocker on ${id}`,
      async () => (await finalizing(id))?.blockers.find((b) => b.type === type && test(b)),
      20_000,
      100,
    );

  it('a Finalized=True with the adapter’s ConfigMap still there: LeftoverObjects, then terminating, unverified on a list error, hard-deleted once gone', async () => {
    const id: string = (await api.call('POST', '/clusters', { kind: 'Cluster', name: 'leftover-1', spec: {} })).body.id;
    const name = `cluster-${id}-config`;
    // What `validation` created for this cluster, marked as its own; a finalizer keeps it terminating once deleted.
    kube.seed({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name,
        namespace: 'default',
        annotations: { 'decom.io/owner': `Cluster/${id}/validation` },
        labels: { 'decom.io/owner-id': id, 'decom.io/managed-by': 'validation' },
        finalizers: ['example.com/hold'],
      },
      data: {},
    });

    expect((await api.call('DELETE', `/clusters/${id}`)).status).toBe(202);
    expect((await api.call('PUT', `/clusters/${id}/statuses`, statusReport('validation', 2, FINALIZED))).status).toBe(201);

    const leftover = await blocker(id, 'LeftoverObjects');
    expect(leftover).toMatchObject({
      objects: [{ adapter: 'validation', apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', name }],
      message: expect.stringContaining(`validation: ConfigMap default/${name}`),
    });
    expect(leftover.objects[0].terminating).toBeUndefined();
    expect((await api.get(`/clusters/${id}`)).body.deleted_time).toEqual(expect.any(String));
    if (hasChromium) await expectBadgeInUi(fixture.engine.url, `ConfigMap default/${name}`);

    // Its delete was requested; the finalizer holds it: still a leftover, now terminating (the sweeper re-checks).
    expect((await fetch(`${kube.url}/api/v1/namespaces/default/configmaps/${name}`, { method: 'DELETE' })).status).toBe(200);
    await blocker(id, 'LeftoverObjects', (b) => b.objects[0]?.terminating === true && /\(terminating\)/.test(b.message));

    // Kubernetes cannot list ConfigMaps: unknown is never taken for clean.
    const outage = kube.faults.add({ verb: 'list', kind: 'ConfigMap', status: 503, reason: 'ServiceUnavailable', message: 'etcd is down' });
    try {
      const unverified = await blocker(id, 'CleanupUnverified');
      expect(unverified).toMatchObject({
        adapters: [{ adapter: 'validation', reason: expect.any(String) }],
        message: expect.stringContaining('cleanup not verified for validation'),
      });
      expect((await api.get(`/clusters/${id}`)).status).toBe(200);
    } finally {
      outage.remove();
    }

    // The finalizer goes, the object with it: the next check hard-deletes the cluster, no operator action.
    kube.removeFinalizer('v1', 'ConfigMap', 'default', name);
    await eventually(
      'the cluster is hard-deleted',
      async () => ((await api.get(`/clusters/${id}`)).status === 404 ? true : undefined),
      20_000,
      100,
    );
    const history = (await api.get(`/resources/${id}/events`)).body.items as { type: string; data: any }[];
    const found = history.filter((e) => e.type === 'LeftoverObjectsFound');
    // Recorded when what was found changed (present, terminating, unverified), not on every check.
    expect(found.length).toBeGreaterThanOrEqual(3);
    expect(found.length).toBeLessThan(10);
    expect(history[history.length - 1]).toMatchObject({ type: 'HardDeleted', data: { cause: 'Reconciled' } });
  }, 180_000);

  it('nothing left behind: hard-deleted as soon as the adapter finalizes', async () => {
    const id: string = (await api.call('POST', '/clusters', { kind: 'Cluster', name: 'clean-1', spec: {} })).body.id;
    expect((await api.call('DELETE', `/clusters/${id}`)).status).toBe(202);
    expect((await api.call('PUT', `/clusters/${id}/statuses`, statusReport('validation', 2, FINALIZED))).status).toBe(201);
    await eventually(
      'the cluster is hard-deleted',
      async () => ((await api.get(`/clusters/${id}`)).status === 404 ? true : undefined),
      20_000,
      100,
    );
    const lists = kube
      .requestsMatching({ verb: 'list' })
      .filter((r) => (r.query['labelSelector'] ?? '').includes(`decom.io/owner-id=${id}`));
    // One label-selected list per kind `validation` creates (Namespace, ConfigMap, Job) per check: never a whole-kind scan.
    expect(new Set(lists.map((r) => r.kind))).toEqual(new Set(['Namespace', 'ConfigMap', 'Job']));
    expect(lists.length % 3).toBe(0);
    expect((await api.get(`/resources/${id}/events`)).body.items.some((e: { type: string }) => e.type === 'LeftoverObjectsFound')).toBe(
      false,
    );
  }, 60_000);
});
