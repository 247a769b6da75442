/**
 * The web UI in a real browser: Debian's Chromium driven by playwright-core (no browser
 * download), against the embedded engine with the shipped adapters and the bundled Kubernetes server.
 * Serves the Vite build in dist/ui (ensureBuilt). Screenshots go to a temporary folder, so the suite
 * leaves the work tree clean; `npm run docs:screenshots` sets DECOM_SCREENSHOT_DIR=docs/ui to refresh the
 * pictures docs/ui.md links.
 */
import { existsSync, mkdtempSync } from 'node:fs';
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

describeBrowser('web UI in Chromium', () => {
  let fixture: EngineFixture;
  let api: DemoApi;
  let browser: Browser;
  let page: Page;
  const apiRequests: { url: string; authorization?: string }[] = [];
  /** What the browser logged as a Content-Security-Policy refusal, over the whole suite. */
  const policyViolations: string[] = [];
  let forbiddenId = '';

  const reconciledCluster = async (name: string) => {
    const id: string = (await api.call('POST', '/clusters', { kind: 'Cluster', name, spec: { region: 'eu-west-1' } })).body.id;
    await eventually(`${name} Reconciled`, async () =>
      (await api.get(`/clusters/${id}`)).body.status.conditions.some((c: any) => c.type === 'Reconciled' && c.status === 'True')
        ? true
        : undefined,
    );
    return id;
  };

  beforeAll(async () => {
    ensureBuilt();
    // Authentication off (the embedded default), roles from DECOM_ADMINS: whoami tells the UI who may do what.
    fixture = await startTestEngine({
      adaptersDir: resolve('config/adapters'),
      admins: 'carol@example.com,alice@example.com,operator@example.com',
    });
    api = new DemoApi(fixture.engine.url);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    page = await browser.newPage({ viewport: { width: 1366, height: 800 } });
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to (load|execute|apply|connect|frame)/i.test(message.text()))
        policyViolations.push(message.text());
    });
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/'))
        apiRequests.push({ url: request.url(), authorization: request.headers()['authorization'] });
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await fixture?.stop();
  });

  it('login: the token is sent as Authorization: Bearer on every API call', async () => {
    await page.goto(`${fixture.engine.url}/ui/#/login`);
    await page.getByLabel('Bearer token').fill('test-token-123');
    await page.getByLabel(/^Identity/).fill('carol@example.com');
    await page.screenshot({ path: shot('login') });
    apiRequests.length = 0; // before signing in there is no token to send
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Stuck deletions' }).waitFor();
    await page.getByRole('status').filter({ hasText: 'live' }).waitFor();
    expect(apiRequests.length).toBeGreaterThan(0);
    expect(apiRequests.filter((r) => r.authorization !== 'Bearer test-token-123')).toEqual([]);
  });

  it('a cluster whose adapter gets 403 from Kubernetes appears on the stuck page within 2 s with the message', async () => {
    const id = await reconciledCluster('prod-eu-forbidden');
    forbiddenId = id;
    fixture.engine.localKube!.faults.add({
      method: 'DELETE',
      kind: 'Namespace',
      name: id.toLowerCase(),
      status: 403,
      reason: 'Forbidden',
      message: 'RBAC: adapter may not delete namespaces',
    });
    expect((await api.call('DELETE', `/clusters/${id}`)).status).toBe(202);
    // The page is open and live: the row arrives through the Server-Sent Events, not a reload.
    const row = page.locator(`tr[data-id="${id}"]`);
    await row
      .locator('[data-blocker="AdapterNotFinalized"]', { hasText: 'RBAC: adapter may not delete namespaces' })
      .waitFor({ timeout: 2_000 });
    expect(await row.textContent()).toContain('prod-eu-forbidden');
  });

  it('a paused deletion shows "paused" and who paused it', async () => {
    const id = await reconciledCluster('prod-us-paused');
    const alice = new DemoApi(fixture.engine.url, 'alice@example.com');
    expect((await alice.call('POST', `/clusters/${id}/pause`, { reason: 'INC-9 investigation' })).status).toBe(200);
    expect((await api.call('DELETE', `/clusters/${id}`)).status).toBe(202);
    const badge = page.locator(`tr[data-id="${id}"] [data-blocker="Paused"]`);
    await badge.waitFor({ timeout: 5_000 });
    expect(await badge.textContent()).toMatch(/paused.*paused by alice@example\.com: INC-9 investigation/);
    await page.locator('figure.chart').waitFor();
    // The stuck threshold: with 0 minutes every pending deletion is highlighted as stuck.
    expect(await page.locator('tr.is-stuck').count()).toBe(0);
    await page.getByLabel('Stuck after (minutes)').fill('0');
    await page.locator(`tr.is-stuck[data-id="${id}"]`).waitFor();
    await page.screenshot({ path: shot('stuck'), fullPage: true });
  });

  it('force-delete from the UI with a reason; the resource page then shows the ForceDeleted event after it is gone', async () => {
    await page.locator(`tr[data-id="${forbiddenId}"] a`).click();
    await page.getByRole('heading', { name: 'Cluster prod-eu-forbidden' }).waitFor();
    await page.getByRole('button', { name: 'Force delete' }).click();
    const dialog = page.getByRole('dialog');
    const submit = dialog.getByRole('button', { name: 'Force delete' });
    expect(await submit.isDisabled()).toBe(true); // no reason, no confirmation yet
    await dialog.getByLabel(/^Reason/).fill('INC-77: RBAC cannot be fixed in time');
    await dialog.getByRole('checkbox').check();
    await page.screenshot({ path: shot('force-delete') });
    await submit.click();
    await page.getByText('This resource is gone').waitFor({ timeout: 5_000 });
    const event = page.locator('.timeline li[data-type="ForceDeleted"]');
    await event.waitFor();
    expect(await event.textContent()).toContain('INC-77: RBAC cannot be fixed in time');
    expect(await event.textContent()).toContain('by carol@example.com');
    // The adapter statuses at that moment, readable (not raw JSON): the adapter Kubernetes refused.
    expect(await event.textContent()).toMatch(/adapter_statuses\s*validation: [^;]*Finalized=False/);
    expect((await api.get(`/clusters/${forbiddenId}`)).status).toBe(404);
    await page.screenshot({ path: shot('resource'), fullPage: true });
  });

  it('the replay slider shows the state before and after DELETE (keyboard)', async () => {
    await page.getByRole('link', { name: 'Replay history' }).click();
    const slider = page.getByLabel(/^After event/);
    await slider.waitFor();
    const history = (await api.get(`/resources/${forbiddenId}/events`)).body.items as { type: string }[];
    const deletion = history.findIndex((e) => e.type === 'DeletionRequested');
    await slider.focus();
    await page.keyboard.press('Home');
    for (let i = 0; i < deletion - 1; i++) await page.keyboard.press('ArrowRight');
    await page.locator('#replay-event', { hasText: history[deletion - 1]!.type }).waitFor();
    await page.locator('[data-field="deleted_time"]', { hasText: 'not deleting' }).waitFor();
    expect(await page.locator('[data-field="generation"]').textContent()).toBe('1');
    await page.keyboard.press('ArrowRight');
    await page.locator('#replay-event', { hasText: 'DeletionRequested' }).waitFor();
    await page.locator('[data-field="deleted_time"]', { hasText: 'UTC' }).waitFor();
    expect(await page.locator('[data-field="generation"]').textContent()).toBe('2');
    // After the last event (ForceDeleted/HardDeleted) the resource no longer exists.
    await page.keyboard.press('End');
    await page.locator('[data-field="gone"]').waitFor();
    // The diff between before and after DELETE names the fields that changed.
    await page.getByLabel('From', { exact: true }).selectOption(String(deletion - 1));
    await page.getByLabel('To', { exact: true }).selectOption(String(deletion));
    await page.getByRole('button', { name: 'Compare' }).click();
    const diff = page.locator('table.diff');
    await diff.waitFor();
    expect(await diff.textContent()).toContain('deleted_time');
    expect(await diff.textContent()).toContain('generation');
    await slider.focus();
    await page.keyboard.press('Home');
    for (let i = 0; i < deletion; i++) await page.keyboard.press('ArrowRight');
    await page.locator('#replay-event', { hasText: 'DeletionRequested' }).waitFor();
    await page.screenshot({ path: shot('replay'), fullPage: true });
  });

  it('audit lists the force delete with caller, reason and adapter statuses, and the object it leaked', async () => {
    await page.getByRole('link', { name: 'Audit' }).click();
    const row = page.locator('table.audit tbody tr', { hasText: 'INC-77' });
    await row.waitFor();
    const text = await row.textContent();
    expect(text).toContain('carol@example.com');
    expect(text).toContain('ForceDeleted');
    expect(text).toMatch(/validation: .*Finalized=False/);
    // The force delete left the cluster's Namespace behind (its DELETE is still forbidden): a leak.
    await page.locator('table.leaks tbody tr', { hasText: `Namespace ${forbiddenId.toLowerCase()}` }).waitFor();
    await page.screenshot({ path: shot('audit'), fullPage: true });
  });

  it('offers only the actions whoami allows (a caller who is not an admin sees no operator action)', async () => {
    const id = await reconciledCluster('viewer-only');
    // Paused first, so the deletion stays pending (an admin would be offered Unpause, Force delete, Force
    // orphan) however fast the adapters are: the page must still be about a resource that exists.
    expect(
      (await new DemoApi(fixture.engine.url, 'alice@example.com').call('POST', `/clusters/${id}/pause`, { reason: 'viewer test' })).status,
    ).toBe(200);
    expect((await api.call('DELETE', `/clusters/${id}`)).status).toBe(202);
    await page.goto(`${fixture.engine.url}/ui/#/login`);
    await page.getByLabel(/^Identity/).fill('viewer@example.com');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('header', { hasText: 'viewer@example.com' }).waitFor();
    await page.goto(`${fixture.engine.url}/ui/#/resource/${id}`);
    await page.getByText('No action available to you for this resource now.').waitFor();
    for (const name of ['Pause', 'Unpause', 'Force delete', 'Force orphan'])
      expect(await page.getByRole('button', { name }).count()).toBe(0);
  });

  it('Delete shows the preview first (nothing recorded), and deletes only once confirmed', async () => {
    const id = await reconciledCluster('preview-me');
    await page.goto(`${fixture.engine.url}/ui/#/resource/${id}`);
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const dialog = page.getByRole('dialog');
    const row = dialog.locator(`table.preview tr[data-id="${id}"]`);
    await row.waitFor();
    expect(await row.textContent()).toMatch(/Cluster preview-me.*Delete.*validation/s);
    // The preview recorded nothing: the cluster is not deleting.
    expect((await api.get(`/clusters/${id}`)).body.deleted_time).toBeUndefined();
    const submit = dialog.getByRole('button', { name: 'Delete', exact: true });
    expect(await submit.isDisabled()).toBe(true);
    await dialog.getByRole('checkbox').check();
    await page.screenshot({ path: shot('delete-preview') });
    await submit.click();
    await eventually('the cluster is deleting or gone', async () => {
      const answer = await api.get(`/clusters/${id}`);
      return answer.status === 404 || answer.body.deleted_time ? true : undefined;
    });
  });

  it('is served with a Content-Security-Policy that forbids framing and foreign code, and the UI breaks none of it', async () => {
    const answer = await fetch(`${fixture.engine.url}/ui/`);
    expect(answer.status).toBe(200);
    const policy = answer.headers.get('content-security-policy') ?? '';
    for (const directive of ["default-src 'self'", "script-src 'self'", "frame-ancestors 'none'", "object-src 'none'"])
      expect(policy).toContain(directive);
    expect(answer.headers.get('x-frame-options')).toBe('DENY');
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    // Every page this suite opened rendered under that policy without one refusal.
    expect(policyViolations).toEqual([]);
  });

  it('an API error is shown as the problem title and detail', async () => {
    await page.goto(`${fixture.engine.url}/ui/#/replay/not-a-known-id`);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/Not Found.*404.*not-a-known-id/s);
  });
});
