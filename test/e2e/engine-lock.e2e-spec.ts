/**
 * The embedded profile allows one engine per data folder: a second start on the same DECOM_DATA_DIR is
 * refused with a message naming the variable, and the first engine keeps working.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pino from 'pino';
import { loadAppConfig } from '@decom/config';
import { startEngine } from '../../apps/cli/src/engine/engine.js';
import { startTestEngine, type EngineFixture } from './engine-fixture.js';

describe('embedded data folder lock', () => {
  let fixture: EngineFixture;
  beforeAll(async () => {
    fixture = await startTestEngine();
  });
  afterAll(async () => fixture?.stop());

  it('refuses a second engine on the same DECOM_DATA_DIR', async () => {
    const config = {
      ...loadAppConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        DECOM_DATA_DIR: fixture.dataDir,
        DECOM_ADAPTERS_DIR: resolve(fixture.dataDir, 'no-adapters'),
        DECOM_ENTITIES_FILE: resolve('config/entities.yaml'),
      }),
      logLevel: 'silent' as const,
    };
    await expect(startEngine({ config, logger: pino({ level: 'silent' }) })).rejects.toThrow(
      /DECOM_DATA_DIR: .* is in use by another running Decom engine/,
    );
    const health = await fetch(`${fixture.engine.url}/healthz`);
    expect(health.status).toBe(200);
  });

  it('takes over at once a lock whose holder is dead (restart right after kill -9)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'decom-lock-'));
    // What a kill -9'd engine leaves: a fresh lock folder and the pid of a process that no longer runs.
    const dead = spawnSync(process.execPath, ['-e', '0']);
    mkdirSync(join(dataDir, 'decom.lock'));
    mkdirSync(join(dataDir, 'no-adapters'));
    writeFileSync(join(dataDir, 'decom.lock.pid'), String(dead.pid));
    const config = {
      ...loadAppConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        DECOM_DATA_DIR: dataDir,
        DECOM_ADAPTERS_DIR: resolve(dataDir, 'no-adapters'),
        DECOM_ENTITIES_FILE: resolve('config/entities.yaml'),
      }),
      logLevel: 'silent' as const,
    };
    const engine = await startEngine({ config, logger: pino({ level: 'silent' }) });
    try {
      expect((await fetch(`${engine.url}/readyz`)).status).toBe(200);
    } finally {
      await engine.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
