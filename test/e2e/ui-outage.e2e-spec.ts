/**
 * docs/operations.md "The UI during outages", in a real browser (Debian's Chromium via playwright-core): the
 * stuck-deletions page never shows a false all-clear. With the job queue down (a private redis-server this
 * test stops, never REDIS_URL; the engine runs as its own `decom start` process there) the pending deletion
 * still shows, from the read model, under a banner saying dead-letter blockers are unknown. With the engine
 * itself stopped after the first load, the last list stays with an "engine unreachable" banner, and the
 * banner follows to the next page. Serves the Vite build in dist/ui (ensureBuilt). No adapters run, so the deletions
 * stay pending.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { DemoApi, eventually } from '../../apps/cli/src/demo/api-client.js';
import { freePort } from '../support/free-port.js';
import { useThrowAwayRedis, type RedisForTests } from '../support/redis.js';
import { spawnDecom, type DecomProcess } from './support/decom-process.js';
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

const ALL_CLEAR = ['No deletion is pending.', 'No blockers.'];
const CLOCK = /\d\d:\d\d:\d\d UTC/.source;
/** apps/ui/src/last-known.ts `REFRESH_MS`: how often a healthy page re-reads anyway (that module imports React, so not imported here). */
const REFRESH_MS = 15_000;

/** A cluster with a DELETE pending (no adapter runs here to finish it); returns its id. */
async function pendingDeletion(api: DemoApi, name: string): Promise<string> {
  const id = (await api.call('POST', '/clusters', { kind: 'Cluster', name, spec: {} })).body.id as string;
  expect((await api.call('DELETE', `/clusters/${id}`)).status).toBe(202);
  return id;
}

/** Whether the page shows any all-clear text now (the table's empty row, the chart's empty state). */
async function allClearShown(page: Page): Promise<string[]> {
  const shown: string[] = [];
  for (const text of ALL_CLEAR) if ((await page.getByText(text, { exact: true }).count()) > 0) shown.push(text);
  return shown;
}

describeBrowser('web UI during outages: never a false all-clear', () => {
  let browser: Browser;

  beforeAll(async () => {
    ensureBuilt();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
  });

  describe('the job queue (Redis) is down', () => {
    let redis: RedisForTests;
    let decom: DecomProcess | undefined;
    let dataDir: string;
    let url: string;
    let page: Page;

    beforeAll(async () => {
      redis = await useThrowAwayRedis();
      // A `decom start` process of its own: what its job queue leaves behind when it stops during a Redis outage
      // goes with the process instead of keeping this test runner alive.
      dataDir = mkdtempSync(join(tmpdir(), 'decom-ui-outage-'));
      mkdirSync(join(dataDir, 'no-adapters'));
      const port = await freePort();
      url = `http://127.0.0.1:${port}`;
      decom = spawnDecom(['start'], {
        PORT: String(port),
        HOST: '127.0.0.1',
        DECOM_DATA_DIR: dataDir,
        DECOM_ADAPTERS_DIR: join(dataDir, 'no-adapters'),
        DECOM_ENTITIES_FILE: resolve('config/entities.yaml'),
        REDIS_URL: redis.url,
        DECOM_QUEUE_PREFIX: `decom-ui-outage-${randomUUID()}`,
        LOG_LEVEL: 'silent',
      });
      await eventually(
        'decom start answering',
        async () =>
          (await fetch(`${url}/healthz`).then(
            (r) => r.ok,
            () => false,
          )) || undefined,
        30_000,
        200,
      );
      page = await browser.newPage({ viewport: { width: 1366, height: 800 } });
    }, 45_000);
    afterAll(async () => {
      await page?.close();
      decom?.kill('SIGKILL');
      await decom?.exited;
      await redis?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('the pending deletion stays listed from the read model, under a "job queue unreachable" banner, with no all-clear', async () => {
      const pendingId = await pendingDeletion(new DemoApi(url), 'pending-before-outage');
      await page.goto(`${url}/ui/#/`);
      await page.locator(`tr[data-id="${pendingId}"]`).waitFor({ timeout: 5_000 });
      await page.getByRole('status').filter({ hasText: 'live' }).waitFor({ timeout: 5_000 });
      expect(await page.locator('.outage').count()).toBe(0);

      await redis.stop();
      // Nothing announces a queue outage on the live stream: the open page learns of it from its periodic re-read.
      const notice = page.locator('[data-notice="queue-unavailable"]');
      await notice.waitFor({ timeout: REFRESH_MS + 5_000 });
      expect(await notice.textContent()).toMatch(new RegExp(`^Job queue unreachable since ${CLOCK}; dead-letter blockers unknown`));
      expect(await page.locator(`tr[data-id="${pendingId}"]`).textContent()).toContain('pending-before-outage');
      expect(await allClearShown(page)).toEqual([]);

      // A fresh load during the outage: no earlier data in the tab, the same banner and rows, still no all-clear.
      await page.reload();
      await page.locator(`tr[data-id="${pendingId}"]`).waitFor({ timeout: 5_000 });
      await notice.waitFor({ timeout: 5_000 });
      expect(await allClearShown(page)).toEqual([]);
      expect(await page.locator(`tr[data-id="${pendingId}"] .blockers`).textContent()).not.toContain('hard delete due');
      await page.screenshot({ path: shot('outage-job-queue'), fullPage: true });
    }, 40_000);
  });

  describe('the engine itself stops answering after the first load', () => {
    let fixture: EngineFixture | undefined;
    let page: Page;

    beforeAll(async () => {
      fixture = await startTestEngine();
      page = await browser.newPage({ viewport: { width: 1366, height: 800 } });
    }, 30_000);
    afterAll(async () => {
      await page?.close();
      await fixture?.stop();
    });

    it('the last list stays, with "engine unreachable since …; showing data from …", and no all-clear', async () => {
      const engine = fixture!;
      const pendingId = await pendingDeletion(new DemoApi(engine.engine.url), 'pending-when-engine-stops');
      await page.goto(`${engine.engine.url}/ui/#/`);
      const row = page.locator(`tr[data-id="${pendingId}"]`);
      await row.waitFor({ timeout: 5_000 });
      await page.getByRole('status').filter({ hasText: 'live' }).waitFor({ timeout: 5_000 });

      fixture = undefined;
      await engine.stop();
      // The stream drops at once; after the live grace period the page re-reads every 5 s, and that read fails.
      const notice = page.locator('[data-notice="engine-unreachable"]');
      await notice.waitFor({ timeout: 15_000 });
      expect(await notice.textContent()).toMatch(new RegExp(`^Engine unreachable since ${CLOCK}; showing data from ${CLOCK}\\.$`));
      await page.locator('[data-notice="live-disconnected"]').waitFor({ timeout: 5_000 });
      expect(await row.textContent()).toContain('pending-when-engine-stops');
      expect(await allClearShown(page)).toEqual([]);
      expect(await page.locator('[data-field="blockers-unknown"]').textContent()).toMatch(/could not be reached/);
      await page.screenshot({ path: shot('outage-engine'), fullPage: true });

      // The banner is the layout's: the resource page, opened while the engine is down, says it knows nothing.
      await row.locator('a').click();
      await page.locator('[data-notice="engine-unreachable"]', { hasText: 'no data could be loaded yet' }).waitFor({ timeout: 5_000 });
      await page.getByText('Unknown: the engine could not be reached.').waitFor({ timeout: 5_000 });
    }, 40_000);
  });
});
