/**
 * The two-person rule in the web UI, in a real browser (Debian's Chromium driven by playwright-core, as
 * ui-safety.e2e-spec.ts): an administrator's Force delete on a pending deletion records a request (the action
 * panel says so, the cluster stays); the Approvals page lists it with no Approve button for its requester; a
 * second administrator approves it there and the cluster is force-deleted. Callers sign in with JWTs of a test
 * issuer (the rule needs verified callers); the test plays the adapters (none run).
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { parse, stringify } from 'yaml';
import { eventually } from '../../apps/cli/src/demo/api-client.js';
import { serverConfigYaml } from '../support/server-config.js';
import { TestIssuer } from '../support/test-issuer.js';
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

const ALICE = 'alice@example.com';
const BOB = 'bob@example.com';

describeBrowser('web UI: two-person rule (request from the action panel, approve on the Approvals page)', () => {
  let fixture: EngineFixture;
  let issuer: TestIssuer;
  let folder: string;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    ensureBuilt();
    folder = await mkdtemp(join(tmpdir(), 'decom-ui-break-glass-'));
    issuer = await TestIssuer.start();
    const document = parse(serverConfigYaml(issuer, { identityClaim: 'email', authorization: { admins: [ALICE, BOB] } })) as {
      authorization: Record<string, unknown>;
    };
    document.authorization['break_glass'] = { approvals: 1 };
    const file = join(folder, 'server.yaml');
    await writeFile(file, stringify(document));
    fixture = await startTestEngine({ env: { DECOM_SERVER_CONFIG: file } });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    page = await browser.newPage({ viewport: { width: 1366, height: 800 } });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await fixture?.stop();
    await issuer?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  const signIn = async (identity: string) => {
    await page.goto(`${fixture.engine.url}/ui/#/login`);
    await page.getByLabel('Bearer token').fill(await issuer.token(identity, { expiresIn: 600 }));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Stuck deletions' }).waitFor();
    await page.locator('.who', { hasText: identity }).waitFor();
  };
  const hf = async (identity: string, method: string, path: string, body?: unknown) => {
    const response = await fetch(`${fixture.engine.url}/api/hyperfleet/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${await issuer.token(identity)}`,
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json().catch(() => undefined)) as any };
  };

  it('Force delete becomes a request; the requester sees no Approve; another admin approves and the cluster goes', async () => {
    const id: string = (await hf('operator@example.com', 'POST', '/clusters', { kind: 'Cluster', name: 'ui-two-person', spec: {} })).body
      .id;
    expect((await hf('operator@example.com', 'DELETE', `/clusters/${id}`)).status).toBe(202);

    await signIn(ALICE);
    await page.goto(`${fixture.engine.url}/ui/#/resource/${id}`);
    await page.getByRole('button', { name: 'Force delete' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(/^Reason/).fill('dns adapter stuck on a deleted account');
    await dialog.getByRole('checkbox').check();
    await dialog.getByRole('button', { name: 'Force delete' }).click();
    await page
      .getByRole('status')
      .getByText(/another administrator must approve it/)
      .waitFor();
    await page.screenshot({ path: shot('break-glass-requested') });
    expect((await hf(BOB, 'GET', `/clusters/${id}`)).status).toBe(200);

    await page.goto(`${fixture.engine.url}/ui/#/approvals`);
    const row = page.locator('tr', { hasText: 'dns adapter stuck on a deleted account' });
    await row.waitFor();
    expect(await row.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    expect(await row.textContent()).toContain('yours: another administrator approves');

    await signIn(BOB);
    await page.goto(`${fixture.engine.url}/ui/#/approvals`);
    const pending = page.locator('tr', { hasText: 'dns adapter stuck on a deleted account' });
    await pending.getByRole('button', { name: 'Approve' }).click();
    const approve = page.getByRole('dialog');
    await approve.getByText(/Runs the action now, as alice@example.com asked/).waitFor();
    await approve.getByLabel(/^Reason/).fill('checked with the dns team');
    await page.screenshot({ path: shot('break-glass-approve') });
    await approve.getByRole('button', { name: 'Approve' }).click();
    await eventually('force-deleted once approved', async () =>
      (await hf(BOB, 'GET', `/clusters/${id}`)).status === 404 ? true : undefined,
    );
    const types = (await fixture.engine.store.readStream(`cluster-${id}`)).map((e) => e.type);
    expect(types.slice(-4)).toEqual(['BreakGlassRequested', 'BreakGlassApproved', 'ForceDeleted', 'HardDeleted']);
  });
});
