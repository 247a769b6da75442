import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAppConfig } from '@decom/config';
import { openStorage } from './storage.js';

/** The embedded store's files hold every caller and force-delete reason: owner-only when Decom creates them. */
describe('embedded storage files', () => {
  let parent: string;
  beforeEach(() => (parent = mkdtempSync(join(tmpdir(), 'decom-storage-'))));
  afterEach(() => rmSync(parent, { recursive: true, force: true }));

  const modeOf = (path: string) => statSync(path).mode & 0o777;

  it('creates the data folder 0700 and the SQLite file, its WAL and the lock pid 0600', async () => {
    const dataDir = join(parent, 'data');
    const storage = await openStorage(loadAppConfig({ DECOM_DATA_DIR: dataDir }, parent));
    try {
      expect({
        dir: modeOf(dataDir),
        db: modeOf(join(dataDir, 'decom.sqlite')),
        wal: modeOf(join(dataDir, 'decom.sqlite-wal')),
        pid: modeOf(join(dataDir, 'decom.lock.pid')),
      }).toEqual({
        dir: 0o700,
        db: 0o600,
        wal: 0o600,
        pid: 0o600,
      });
    } finally {
      await storage.close();
    }
  });

  it('leaves the mode of a database file that already exists', async () => {
    const dataDir = join(parent, 'shared');
    const storage = await openStorage(loadAppConfig({ DECOM_DATA_DIR: dataDir }, parent));
    await storage.close();
    chmodSync(join(dataDir, 'decom.sqlite'), 0o640);
    const again = await openStorage(loadAppConfig({ DECOM_DATA_DIR: dataDir }, parent));
    await again.close();
    expect(modeOf(join(dataDir, 'decom.sqlite'))).toBe(0o640);
  });
});
