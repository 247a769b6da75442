import { randomUUID } from 'node:crypto';
import { EventStoreDBClient } from '@eventstore/db-client';
import { describeEventStoreContract } from '../contract/event-store.contract.js';
import { EsdbEventStore } from './esdb-event-store.js';

// Test infrastructure, not app config (libs/config is for the app): CI points this at a server when it has one.
const connectionString = process.env['EVENTSTORE_CONNECTION_STRING'];
if (!connectionString) {
  process.stdout.write(
    'EventStoreDB contract suite skipped: EVENTSTORE_CONNECTION_STRING is not set (no EventStoreDB server can be installed on this machine; mapping code is covered by esdb-*.spec.ts)\n',
  );
}

(connectionString ? describe : describe.skip)('EsdbEventStore against a real server', () => {
  let client: EventStoreDBClient;
  beforeAll(() => void (client = EventStoreDBClient.connectionString(connectionString!)));
  afterAll(() => client?.dispose());

  // A namespace per test: the server is shared and cannot be emptied, so each store sees only its own streams.
  describeEventStoreContract(
    'esdb',
    async () => ({
      store: new EsdbEventStore({ client, namespace: `t${randomUUID().replace(/-/g, '')}` }),
      cleanup: async () => undefined,
    }),
    { eventIdScope: 'stream' },
  );
});
