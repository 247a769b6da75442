import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RecordedEvent } from '../event-store.port.js';
import { describeEventStoreContract } from '../contract/event-store.contract.js';
import { SqliteEventStore } from './sqlite-event-store.js';

describeEventStoreContract('sqlite', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'decom-sqlite-'));
  const store = new SqliteEventStore(join(folder, 'events.db'), { pollIntervalMs: 50 });
  return { store, cleanup: async () => rmSync(folder, { recursive: true, force: true }) };
});

describe('SqliteEventStore across processes', () => {
  it('a subscriber sees appends made through another handle on the same file (poll fallback)', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'decom-sqlite-'));
    const file = join(folder, 'events.db');
    const reader = new SqliteEventStore(file, { pollIntervalMs: 50 });
    const writer = new SqliteEventStore(file);
    const seen: RecordedEvent[] = [];
    const subscription = reader.subscribeToAll(async (event) => void seen.push(event), { afterPosition: 0 });
    try {
      await writer.append('cluster-a', [{ type: 'FromElsewhere', data: { n: 1 } }]);
      const deadline = Date.now() + 2000;
      while (seen.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(seen.map((event) => [event.type, event.position])).toEqual([['FromElsewhere', 1]]);
      expect(reader.database.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      await subscription.close();
      await reader.close();
      await writer.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
