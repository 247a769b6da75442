/**
 * The embedded profile allows one engine per data folder: a second start on the same DECOM_DATA_DIR is
 * refused with a message naming the variable, and the first engine keeps working.
 */
import { resolve } from 'node:path';
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
      ...loadAppConfig({ PORT: '0', HOST: '127.0.0.1', DECOM_DATA_DIR: fixture.dataDir, DECOM_ADAPTERS_DIR: resolve(fixture.dataDir, 'no-adapters'), DECOM_ENTITIES_FILE: resolve('config/entities.yaml') }),
      logLevel: 'silent' as const,
    };
    await expect(startEngine({ config, logger: pino({ level: 'silent' }) })).rejects.toThrow(/DECOM_DATA_DIR: .* is in use by another running Decom engine/);
    const health = await fetch(`${fixture.engine.url}/healthz`);
    expect(health.status).toBe(200);
  });
});
