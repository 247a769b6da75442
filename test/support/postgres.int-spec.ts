import pg from 'pg';
import { usePostgres } from './postgres.js';

describe('usePostgres', () => {
  it('gives a server with isolated schemas and stops it', async () => {
    const postgres = await usePostgres();
    const client = new pg.Client({ connectionString: postgres.connectionString });
    try {
      const schema = await postgres.newSchema();
      await client.connect();
      await client.query(`CREATE TABLE ${schema}.t (n INT)`);
      await client.query(`INSERT INTO ${schema}.t VALUES (1), (2)`);
      expect((await client.query(`SELECT sum(n)::int AS total FROM ${schema}.t`)).rows).toEqual([{ total: 3 }]);

      await postgres.dropSchema(schema);
      const left = await client.query('SELECT 1 FROM information_schema.schemata WHERE schema_name = $1', [schema]);
      expect(left.rowCount).toBe(0);
    } finally {
      await client.end();
      await postgres.stop();
    }
    // A server we started is gone (with DATABASE_URL the shared server must stay up).
    const probe = new pg.Client({ connectionString: postgres.connectionString, connectionTimeoutMillis: 2000 });
    const connecting = probe.connect().then(() => probe.end());
    if (process.env['DATABASE_URL']) await expect(connecting).resolves.toBeUndefined();
    else await expect(connecting).rejects.toThrow();
  });
});
