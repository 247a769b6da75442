/**
 * The safety rails in the web UI, in a real browser (Debian's Chromium driven by playwright-core, as
 * ui.e2e-spec.ts): the deletion-protection badge on the resource page, the Delete dialog's preview showing the
 * protection refusal, "Abandon adapter" on a pending deletion (admin, reason and confirmation required), and a
 * DELETE past the deletion budget (`limits.deletions.Cluster.max_in_flight: 1`): the dialog names the budget, and an
 * administrator previews with an override reason that the DELETE then records.
 * The test plays the adapters (none run), so a deletion stays pending until the adapter is abandoned.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { DemoApi, eventually } from '../../apps/cli/src/demo/api-client.js';
import { startTestEngine, type EngineFixture } from './engine-fixture.js';
import { ensureBuilt } from './support/ensure-built.js';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`skipping the browser tests: ${CHROMIUM} is missing (apt-get install chromium; .ci/run does it)`);
const describeBrowser = hasChromium ? describe : describe.skip;
const screenshotDir = process.env.DECOM_SCREENSHOT_DIR
  ? resolve(process.env.DECOM_SCREENSHOT_DIR)
  : mkdtempSync(join(tmpdir(), 'decom-ui-shots-'));
const shot = (name: string) => join(screenshotDir, `${name}.png`);

describeBrowser('web UI: deletion protection badge, abandon adapter, deletion budget', () => {
  let fixture: EngineFixture;
  let api: DemoApi;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    ensureBuilt();
    const serverConfig = join(mkdtempSync(join(tmpdir(), 'decom-ui-budget-')), 'server.yaml');
    writeFileSync(serverConfig, 'limits:\n  deletions:\n    Cluster: { max_in_flight: 1, max_per_hour: 100 }\n');
    fixture = await startTestEngine({ admins: 'carol@example.com', env: { DECOM_SERVER_CONFIG: serverConfig } });
    api = new DemoApi(fixture.engine.url);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    page = await browser.newPage({ viewport: { width: 1366, height: 800 } });
    await page.goto(`${fixture.engine.url}/ui/#/login`);
    await page.getByLabel('Bearer token').fill('test-token');
    await page.getByLabel(/^Identity/).fill('carol@example.com');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Stuck deletions' }).waitFor();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await fixture?.stop();
  });

  it('a protected cluster shows the Protected badge with who set it, and the Delete preview shows the refusal', async () => {
    const created = await api.call('POST', '/clusters', {
      kind: 'Cluster',
      name: 'ui-protected',
      spec: {},
      deletion_protection: true,
      deletion_protection_reason: 'production',
    });
    const id: string = created.body.id;
    await page.goto(`${fixture.engine.url}/ui/#/resource/${id}`);
    const badge = page.locator('.badge-protected');
    await badge.waitFor();
    expect(await page.locator('dl.summary').textContent()).toMatch(/Protected.*set by operator@example\.com \(production\)/);
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(/deletion_protection is set on Cluster 'ui-protected'/).waitFor();
    await page.screenshot({ path: shot('delete-protected') });
    expect((await api.get(`/clusters/${id}`)).body.deleted_time).toBeUndefined();
  });

  it('Abandon adapter on a pending deletion: reason and confirmation, then the deletion finishes without it', async () => {
    const id: string = (await api.call('POST', '/clusters', { kind: 'Cluster', name: 'ui-abandon', spec: {} })).body.id;
    expect((await api.call('DELETE', `/clusters/${id}`)).status).toBe(202);
    await page.goto(`${fixture.engine.url}/ui/#/resource/${id}`);
    await page.getByRole('button', { name: 'Abandon adapter validation' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(/Counts validation's cleanup as done without it/).waitFor();
    const submit = dialog.getByRole('button', { name: 'Abandon adapter validation' });
    expect(await submit.isDisabled()).toBe(true);
    await dialog.getByLabel(/^Reason/).fill('INC-12 cluster API gone');
    await dialog.getByRole('checkbox').check();
    await page.screenshot({ path: shot('abandon-adapter') });
    await submit.click();
    await eventually('hard-deleted once its only adapter is abandoned', async () =>
      (await api.get(`/clusters/${id}`)).status === 404 ? true : undefined,
    );
    const finalized = (await fixture.engine.store.readStream(`cluster-${id}`)).find((e) => e.type === 'AdapterFinalized');
    expect(finalized?.data).toMatchObject({
      adapter: 'validation',
      forced: true,
      caller: 'carol@example.com',
      reason: 'INC-12 cluster API gone',
    });
  });

  it('a DELETE past the deletion budget names it; an administrator previews with an override reason, recorded', async () => {
    const inFlight: string = (await api.call('POST', '/clusters', { kind: 'Cluster', name: 'ui-budget-1', spec: {} })).body.id;
    expect((await api.call('DELETE', `/clusters/${inFlight}`)).status).toBe(202);
    const id: string = (await api.call('POST', '/clusters', { kind: 'Cluster', name: 'ui-budget-2', spec: {} })).body.id;
    await page.goto(`${fixture.engine.url}/ui/#/resource/${id}`);
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const dialog = page.getByRole('dialog');
    const budget = dialog.locator('.budget');
    await budget.waitFor();
    expect(await budget.textContent()).toMatch(/Deletion budget for Cluster: \d+ of 1 deletions in flight; one more fits in about 60 s/);
    expect(await dialog.getByRole('button', { name: 'Delete', exact: true }).isDisabled()).toBe(true);
    await dialog.getByLabel(/^Override reason/).fill('INC-7 region evacuation');
    await dialog.getByRole('button', { name: 'Preview with override' }).click();
    await dialog.getByRole('table', { name: 'Deletion preview' }).waitFor();
    await dialog.getByRole('checkbox').check();
    await page.screenshot({ path: shot('delete-budget-override') });
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    const requested = await eventually('the DELETE with the override recorded', async () =>
      (await fixture.engine.store.readStream(`cluster-${id}`)).find((e) => e.type === 'DeletionRequested'),
    );
    expect((requested.data as { deletion_budget_override?: unknown }).deletion_budget_override).toEqual({
      caller: 'carol@example.com',
      reason: 'INC-7 region evacuation',
    });
  });
});
