import { execFile, execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './free-port.js';

const run = promisify(execFile);

/** A PostgreSQL server for integration tests; every test isolates itself in a schema of its own. */
export interface PostgresForTests {
  /** Superuser connection string (database `postgres`, or whatever `DATABASE_URL` names). */
  readonly connectionString: string;
  /** Creates an empty schema with a unique name and returns the name. */
  newSchema(): Promise<string>;
  /** Drops a schema and everything in it (no error when it is already gone). */
  dropSchema(schema: string): Promise<void>;
  /** Closes the admin connections and, for a server we started, stops it and deletes its files. */
  stop(): Promise<void>;
}

/**
 * Uses the server named by `DATABASE_URL` when set (CI, or the one running on this box); otherwise starts
 * a throw-away cluster from the Debian binaries (`/usr/lib/postgresql/<version>/bin`): `initdb` with trust
 * auth into a temp folder, `pg_ctl start` on a random 127.0.0.1 port with durability off (fsync,
 * synchronous_commit, full_page_writes) since the data is thrown away. As root the binaries run as `postgres`.
 * @throws Error saying to `apt-get install postgresql` when no binaries are found.
 */
export async function usePostgres(): Promise<PostgresForTests> {
  // Test infrastructure, not app config: libs/config is for the app, CI sets this for the tests.
  const url = process.env['DATABASE_URL'];
  const server = url ? { connectionString: url, stop: async () => undefined } : await startCluster();
  const admin = new pg.Pool({ connectionString: server.connectionString, max: 2 });
  admin.on('error', () => undefined);
  return {
    connectionString: server.connectionString,
    async newSchema() {
      const schema = `test_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
      await admin.query(`CREATE SCHEMA ${schema}`);
      return schema;
    },
    async dropSchema(schema) {
      await admin.query(`DROP SCHEMA IF EXISTS ${pg.escapeIdentifier(schema)} CASCADE`);
    },
    async stop() {
      await admin.end();
      await server.stop();
    },
  };
}

/** A private server a test may stop and start (never the one `DATABASE_URL` names). */
export interface RestartablePostgres extends PostgresForTests {
  /** `pg_ctl stop -m fast`: open sessions are terminated (57P01), new connections refused. */
  stopServer(): Promise<void>;
  /** Starts it again on the same port and data. */
  startServer(): Promise<void>;
}

/**
 * Always starts a throw-away cluster (see `usePostgres`), for tests that stop and restart PostgreSQL.
 * @throws Error saying to `apt-get install postgresql` when no binaries are found.
 */
export async function useThrowAwayPostgres(): Promise<RestartablePostgres> {
  const server = await startCluster();
  const admin = new pg.Pool({ connectionString: server.connectionString, max: 2 });
  admin.on('error', () => undefined);
  admin.on('connect', (client) => client.on('error', () => undefined));
  return {
    connectionString: server.connectionString,
    async newSchema() {
      const schema = `test_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
      await admin.query(`CREATE SCHEMA ${schema}`);
      return schema;
    },
    async dropSchema(schema) {
      await admin.query(`DROP SCHEMA IF EXISTS ${pg.escapeIdentifier(schema)} CASCADE`);
    },
    stopServer: () => server.pause(),
    startServer: () => server.resume(),
    async stop() {
      await admin.end();
      await server.stop();
    },
  };
}

async function startCluster(): Promise<{
  connectionString: string;
  stop(): Promise<void>;
  pause(): Promise<void>;
  resume(): Promise<void>;
}> {
  const bin = findBinaries();
  const folder = mkdtempSync(join(tmpdir(), 'decom-pg-'));
  const data = join(folder, 'data');
  const asPostgres = process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : [];
  if (asPostgres.length > 0) {
    // initdb refuses to run as root; the cluster's files must belong to the user it runs as.
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }));
    chownSync(folder, uid, gid);
  }
  const command = (tool: string, args: string[]) => {
    const argv = [...asPostgres, join(bin, tool), ...args];
    return { file: argv[0]!, args: argv.slice(1), options: { cwd: folder } };
  };
  const exec = ({ file, args, options }: ReturnType<typeof command>) => run(file, args, options);
  const stopCommand = command('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);

  // If the test process dies without calling stop(), do not leave a server running.
  const onExit = () => {
    try {
      execFileSync(stopCommand.file, stopCommand.args, { ...stopCommand.options, stdio: 'ignore' });
    } catch {
      // Already stopped.
    }
    rmSync(folder, { recursive: true, force: true });
  };
  try {
    await exec(command('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync']));
    process.once('exit', onExit);
    for (let attempt = 1; ; attempt += 1) {
      const port = await freePort();
      const options = `-p ${port} -k ${folder} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
      try {
        const start = command('pg_ctl', ['-D', data, '-l', join(folder, 'server.log'), '-o', options, '-w', 'start']);
        await exec(start);
        return {
          connectionString: `postgres://postgres@127.0.0.1:${port}/postgres`,
          pause: async () => void (await exec(command('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']))),
          resume: async () => void (await exec(start)),
          async stop() {
            process.removeListener('exit', onExit);
            await exec(stopCommand);
            rmSync(folder, { recursive: true, force: true });
          },
        };
      } catch (error) {
        // Most likely another process took the port between freePort() and the server's bind.
        if (attempt === 3) throw error;
      }
    }
  } catch (error) {
    process.removeListener('exit', onExit);
    onExit();
    throw error;
  }
}

/** The newest `/usr/lib/postgresql/<version>/bin` holding `initdb` and `pg_ctl`. */
function findBinaries(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  const bin = versions.map((version) => join(root, version, 'bin')).find((dir) => existsSync(join(dir, 'initdb')));
  if (!bin) {
    throw new Error(
      'PostgreSQL server binaries not found (/usr/lib/postgresql/*/bin/initdb): run `apt-get install postgresql`, ' +
        'or set DATABASE_URL to a server the tests may create schemas in',
    );
  }
  return bin;
}
