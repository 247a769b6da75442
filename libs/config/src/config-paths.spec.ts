import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, checkConfigPaths } from '@decom/config';

describe('checkConfigPaths', () => {
  const dir = mkdtempSync(join(tmpdir(), 'decom-paths-'));
  const file = join(dir, 'entities.yaml');
  writeFileSync(file, 'entities: []\n');
  const ok = { entitiesFile: file, adaptersDir: dir, dataDir: join(dir, 'data', 'nested'), eventStore: 'sqlite' as const };

  it('accepts existing paths and a data folder still to be created', () => {
    expect(() => checkConfigPaths(ok)).not.toThrow();
  });

  it.each([
    [{ kubeconfig: '/nonexistent' }, 'KUBECONFIG: file not found: /nonexistent'],
    [{ kubeconfig: dir }, `KUBECONFIG: not a file: ${dir}`],
    [{ adaptersDir: '/nonexistent-adapters' }, 'DECOM_ADAPTERS_DIR: folder not found: /nonexistent-adapters'],
    [{ adaptersDir: file }, `DECOM_ADAPTERS_DIR: not a folder: ${file}`],
    [{ entitiesFile: '/nope.yaml' }, 'DECOM_ENTITIES_FILE: file not found: /nope.yaml'],
    [{ dataDir: join(file, 'sub') }, `DECOM_DATA_DIR: not a folder: ${file}`],
    [{ dataDir: '/proc/nope' }, 'DECOM_DATA_DIR: not a place for data: /proc/nope'],
  ])('refuses %j naming the variable', (change, message) => {
    expect(() => checkConfigPaths({ ...ok, ...change })).toThrow(ConfigError);
    expect(() => checkConfigPaths({ ...ok, ...change })).toThrow(message);
  });
});
