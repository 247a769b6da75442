/**
 * CLI papercuts through the built binary (`node bin/decom.js`): pipes end quietly, an
 * unreachable engine is named, `adapter validate` exit codes, `jobs retry` on an unknown queue, a port in
 * use as one JSON log line, a corrupt SQLite file named, and the bundled Kubernetes kubeconfig in the
 * data folder (usable by @kubernetes/client-node, as kubectl would).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { KubeConfig, KubernetesObjectApi } from '@kubernetes/client-node';
import { freePort } from '../support/free-port.js';
import { useRedis, type RedisForTests } from '../support/redis.js';
import { writeServerConfig } from '../support/server-config.js';
import { TestIssuer } from '../support/test-issuer.js';
import { DECOM_BIN, ensureBuilt, runBuiltDecom, runShell } from './support/built-decom.js';
import { startTestEngine, type EngineFixture } from './engine-fixture.js';

const STACK_LINE = /^\s+at .+:\d+:\d+\)?$/m;

describe('decom CLI papercuts, built binary', () => {
  let dir: string;

  beforeAll(async () => {
    ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), 'decom-cli-'));
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  describe('decom history', () => {
    let fixture: EngineFixture;
    let id: string;

    beforeAll(async () => {
      fixture = await startTestEngine();
      // A 300 KB spec makes `--json` one write far larger than a pipe's buffer: `head` leaves mid-write.
      const response = await fetch(`${fixture.engine.url}/api/hyperfleet/v1/clusters`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ kind: 'Cluster', name: 'pipe-test', spec: { blob: 'x'.repeat(300_000) } }),
      });
      id = ((await response.json()) as { id: string }).id;
    });
    afterAll(async () => fixture?.stop());

    it('piped into head, less or grep -m1 ends quietly (no EPIPE stack), every time', async () => {
      for (const reader of ['head -2', 'grep -m1 stream', 'less -FX | head -1']) {
        const run = await runShell(
          `$DECOM history ${id} --json --api ${fixture.engine.url} 2>"$ERR" | ${reader} > /dev/null; echo "decom=\${PIPESTATUS[0]}"`,
          { ERR: join(dir, 'err.txt'), TERM: 'dumb' },
        );
        const stderr = readFileSync(join(dir, 'err.txt'), 'utf8');
        expect({ reader, stderr, status: run.stdout.trim() }).toEqual({ reader, stderr: '', status: 'decom=0' });
      }
      const text = await runShell(`$DECOM history ${id} --api ${fixture.engine.url} | head -1`);
      expect(text.stdout).toMatch(new RegExp(`^Cluster ${id} \\(stream cluster-${id}, 1 events\\)\\n$`));
    });

    it('with no engine, names the URL it tried and how to point elsewhere', async () => {
      const port = await freePort();
      const viaPort = await runBuiltDecom(['history', 'some-id'], { PORT: String(port) });
      expect(viaPort.code).toBe(1);
      expect(viaPort.stderr).toBe(
        `decom: cannot reach the engine at http://127.0.0.1:${port} (ECONNREFUSED): start one with \`decom start\`, or point elsewhere with --api URL or DECOM_API_URL\n`,
      );
      const viaFlag = await runBuiltDecom(['history', 'some-id', '--api', `http://127.0.0.1:${port}/`]);
      expect(viaFlag.stderr).toContain(`cannot reach the engine at http://127.0.0.1:${port} (ECONNREFUSED)`);
      expect(viaFlag.stderr).not.toMatch(STACK_LINE);
    });
  });

  describe('decom leaks against an engine with JWT on', () => {
    let issuer: TestIssuer;
    let fixture: EngineFixture;
    let adminToken: string;
    let viewerToken: string;

    beforeAll(async () => {
      issuer = await TestIssuer.start();
      const config = join(dir, 'leaks-server.yaml');
      await writeServerConfig(config, issuer, { identityClaim: 'email', authorization: { admins: ['admin@example.com'] } });
      fixture = await startTestEngine({ env: { DECOM_SERVER_CONFIG: config } });
      adminToken = join(dir, 'admin.jwt');
      viewerToken = join(dir, 'viewer.jwt');
      writeFileSync(adminToken, `${await issuer.token('admin@example.com')}\n`);
      writeFileSync(viewerToken, `${await issuer.token('viewer@example.com')}\n`);
    }, 60_000);
    afterAll(async () => {
      await fixture?.stop();
      await issuer?.close();
    });

    it('without a token the API refuses it (exit 1); --token-file or DECOM_TOKEN_FILE sends the bearer token', async () => {
      const api = ['--api', fixture.engine.url];
      const refused = await runBuiltDecom(['leaks', ...api]);
      expect([refused.code, refused.stderr]).toEqual([
        1,
        expect.stringMatching(/^decom: 401 .*pass --token-file FILE or set DECOM_TOKEN_FILE\n$/),
      ]);
      const viaFlag = await runBuiltDecom(['leaks', ...api, '--token-file', viewerToken]);
      expect([viaFlag.code, viaFlag.stdout, viaFlag.stderr]).toEqual([0, '0 leaked object(s)\n', '']);
      const viaEnv = await runBuiltDecom(['leaks', ...api], { DECOM_TOKEN_FILE: viewerToken });
      expect([viaEnv.code, viaEnv.stdout]).toEqual([0, '0 leaked object(s)\n']);
    });

    it('adapter plan: a 401 says how to pass a token (exit 1); with --token-file it gets past authentication', async () => {
      const plan = [
        'adapter',
        'plan',
        '--task-config',
        'config/adapters/validation.yaml',
        '--resource',
        'no-such-id',
        '--api',
        fixture.engine.url,
        '--kubeconfig',
        join(fixture.dataDir, 'kubeconfig'),
      ];
      const refused = await runBuiltDecom(plan);
      expect([refused.code, refused.stderr]).toEqual([
        1,
        expect.stringMatching(/401.*: the API needs a bearer token: pass --token-file FILE or set DECOM_TOKEN_FILE\n$/),
      ]);
      const withToken = await runBuiltDecom([...plan, '--token-file', viewerToken]);
      // Not the status (a port such as 40117 may contain the digits).
      expect(withToken.stderr).not.toMatch(/\b401\b/);
    });

    it("docs/policies.md's --delete example: an administrator's token deletes, another caller's is 403", async () => {
      const reason = ['--reason', 'INC-7: leftovers of the force-deleted prod-eu-1'];
      const admin = await runBuiltDecom(['leaks', '--delete', ...reason, '--token-file', adminToken, '--api', fixture.engine.url]);
      expect([admin.code, admin.stdout, admin.stderr]).toEqual([0, '0 leaked object(s) deleted\n', '']);
      const viewer = await runBuiltDecom(['leaks', '--delete', ...reason, '--api', fixture.engine.url], { DECOM_TOKEN_FILE: viewerToken });
      expect([viewer.code, viewer.stderr]).toEqual([1, expect.stringMatching(/^decom: 403 /)]);
    });

    it('with no engine, names the URL it tried and how to point elsewhere', async () => {
      const port = await freePort();
      const run = await runBuiltDecom(['leaks'], { PORT: String(port) });
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(
        `decom: cannot reach the engine at http://127.0.0.1:${port} (ECONNREFUSED): start one with \`decom start\`, or point elsewhere with --api URL or DECOM_API_URL\n`,
      );
    });
  });

  describe('usage errors exit 2 in every command (docs/adapter-tools.md: unusable input)', () => {
    const unreachable = 'http://127.0.0.1:1';
    it.each<[string, string[], RegExp, Record<string, string>]>([
      // Every row has its env (even {}): jest takes a test function with more parameters than the row for a done-callback one.
      [
        'a missing required option',
        ['adapter', 'dry-run', '--event', 'x.json'],
        /required option '--task-config <file>' not specified/,
        {},
      ],
      ['an unknown option', ['leaks', '--bogus'], /unknown option '--bogus'/, {}],
      ['--delete without --reason', ['leaks', '--delete'], /^decom: --delete needs --reason/, {}],
      ['a bad option value', ['projections', 'rebuild', '--batch-size', 'abc'], /must be a positive integer/, {}],
      ['an unknown command', ['frobnicate'], /unknown command 'frobnicate'/, {}],
      ['a missing argument', ['history'], /missing required argument 'id'/, {}],
      [
        '--api that is not a URL (history)',
        ['history', 'some-id', '--api', 'localhost:8000'],
        /option '--api <url>' argument 'localhost:8000' is invalid\. must be an http\(s\) URL/,
        {},
      ],
      [
        '--api that is not a URL (adapter plan)',
        ['adapter', 'plan', '--task-config', 'x.yaml', '--resource', 'r', '--api', 'ftp://x'],
        /must be an http\(s\) URL/,
        {},
      ],
      [
        'a token file that cannot be read (delete)',
        ['delete', 'cluster', 'some-id', '--api', unreachable, '--token-file', '/nonexistent/token'],
        /^decom: cannot read the API token file \/nonexistent\/token: ENOENT/,
        {},
      ],
      [
        'a token file that cannot be read (jobs, through the API)',
        ['jobs', 'failed', '--api', unreachable],
        /^decom: cannot read the API token file \/nonexistent\/token/,
        { DECOM_TOKEN_FILE: '/nonexistent/token' },
      ],
      [
        'an invalid environment variable (client command)',
        ['leaks'],
        /^decom: invalid configuration: PORT: must be an integer/,
        { PORT: 'abc' },
      ],
      [
        'an invalid environment variable (projections rebuild)',
        ['projections', 'rebuild'],
        /^decom: invalid configuration: DECOM_EVENT_STORE: must be one of/,
        { DECOM_EVENT_STORE: 'bogus' },
      ],
      ['jobs --redis without REDIS_URL', ['jobs', 'failed', '--redis'], /--redis needs REDIS_URL/, {}],
      ['adapter validate with no file', ['adapter', 'validate'], /validate needs at least one file/, {}],
    ])('%s → 2', async (_, args, message, env) => {
      const run = await runBuiltDecom(args, env);
      expect([run.code, run.stderr]).toEqual([2, expect.stringMatching(message)]);
      expect(run.stderr).not.toMatch(STACK_LINE);
    });

    it.each([
      ['history', ['history', 'some-id', '--api', unreachable]],
      ['delete', ['delete', 'cluster', 'some-id', '--api', unreachable]],
      ['leaks', ['leaks', '--api', unreachable]],
      ['jobs failed (through the API)', ['jobs', 'failed', '--api', unreachable]],
    ])('a failure of the work itself (no engine there) → 1: %s', async (_, args) => {
      const run = await runBuiltDecom(args);
      expect([run.code, run.stderr]).toEqual([1, expect.stringContaining(`cannot reach the engine at ${unreachable}`)]);
    });

    it('--help and --version still exit 0', async () => {
      expect((await runBuiltDecom(['--version'])).code).toBe(0);
      expect((await runBuiltDecom(['leaks', '--help'])).code).toBe(0);
    });
  });

  describe('decom start checks every file against every other before listening', () => {
    it('a Sentinel file naming a kind the kinds file lacks → exit 2, nothing listened', async () => {
      const kinds = join(dir, 'widgets-only.yaml');
      writeFileSync(kinds, 'entities:\n  - kind: Widget\n    plural: widgets\n');
      const env = {
        PORT: String(await freePort()),
        DECOM_METRICS_PORT: String(await freePort()),
        DECOM_DATA_DIR: join(dir, 'data-sentinel'),
        DECOM_ENTITIES_FILE: kinds,
      };
      const run = await runBuiltDecom(['start'], env, { timeoutMs: 60_000 });
      expect([run.code, run.stderr]).toEqual([
        2,
        expect.stringMatching(
          /^decom: invalid configuration: .*sentinel\.yaml:\d+:\d+ sentinels\[0\]\.resource_type: unknown resource type "clusters"/,
        ),
      ]);
      expect(run.stdout).not.toContain('API listening');
    }, 70_000);
  });

  describe('decom adapter validate exit codes (docs/adapter-tools.md)', () => {
    it('a missing file → 2, naming it', async () => {
      const run = await runBuiltDecom(['adapter', 'validate', join(dir, 'nope.yaml')]);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe(`${join(dir, 'nope.yaml')}:1:1 cannot read file: ENOENT\n`);
    });

    it('a YAML syntax error → 2, positioned', async () => {
      const file = join(dir, 'broken.yaml');
      writeFileSync(file, 'params:\n  - name: a\n   source: [unclosed\n');
      const run = await runBuiltDecom(['adapter', 'validate', file]);
      expect(run.code).toBe(2);
      expect(run.stdout).toMatch(new RegExp(`^${file}:\\d+:\\d+ `));
    });

    it('an empty file (or only comments) → 2: nothing to validate', async () => {
      const empty = join(dir, 'empty.yaml');
      const comments = join(dir, 'comments.yaml');
      writeFileSync(empty, '');
      writeFileSync(comments, '# nothing here yet\n');
      const run = await runBuiltDecom(['adapter', 'validate', empty, comments]);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe(
        `${empty}:1:1 the file is empty: no task config to validate\n${comments}:1:1 the file is empty: no task config to validate\n`,
      );
    });

    it('a valid file → 0; an invalid config → 1; unusable input wins → 2', async () => {
      const invalid = join(dir, 'invalid.yaml');
      writeFileSync(invalid, 'params:\n  - name: a\n    sorce: event.id\n');
      expect((await runBuiltDecom(['adapter', 'validate', 'config/adapters/np-configmap.yaml'])).code).toBe(0);
      const one = await runBuiltDecom(['adapter', 'validate', 'config/adapters/np-configmap.yaml', invalid]);
      expect(one.code).toBe(1);
      expect(one.stdout).toContain(`${invalid}:3:5`);
      expect((await runBuiltDecom(['adapter', 'validate', invalid, join(dir, 'nope.yaml')])).code).toBe(2);
    });
  });

  describe('decom jobs retry', () => {
    let redis: RedisForTests;
    beforeAll(async () => {
      redis = await useRedis();
    });
    afterAll(async () => redis?.stop());

    it('says the queue is unknown (exit 2), and does not create it', async () => {
      const env = { REDIS_URL: redis.url, DECOM_QUEUE_PREFIX: redis.prefix('cli') };
      const run = await runBuiltDecom(['jobs', 'retry', 'bogus-queue', 'nope', '--redis'], env);
      expect(run.code).toBe(2);
      expect(run.stderr).toBe('decom jobs: unknown queue bogus-queue; known queues: (none yet)\n');
      const again = await runBuiltDecom(['jobs', 'retry', 'bogus-queue', 'nope', '--redis'], env);
      expect(again.stderr).toContain('known queues: (none yet)');
    });
  });

  describe('start-up errors', () => {
    it('a port in use is one JSON log line with the port and a clear message, no ANSI Nest line', async () => {
      const blocker: Server = createServer();
      blocker.listen(0, '127.0.0.1');
      await once(blocker, 'listening');
      const port = (blocker.address() as { port: number }).port;
      const data = mkdtempSync(join(dir, 'port-'));
      try {
        const run = await runBuiltDecom(
          ['start'],
          { PORT: String(port), HOST: '127.0.0.1', DECOM_DATA_DIR: data, DECOM_METRICS_PORT: '0' },
          { timeoutMs: 60_000 },
        );
        expect(run.code).toBe(1);
        const output = run.stdout + run.stderr;
        expect(output).not.toContain('\u001b[');
        expect(output).not.toContain('[Nest]');
        const errors = output
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as { level: number; port?: number; msg: string })
          .filter((line) => line.level >= 50);
        expect(errors).toEqual([
          expect.objectContaining({
            port,
            msg: `cannot start: port ${port} on 127.0.0.1 is already in use: stop the other process or set PORT to a free port`,
          }),
        ]);
      } finally {
        blocker.close();
      }
    }, 60_000);

    it('a corrupt SQLite file is named', async () => {
      const data = mkdtempSync(join(dir, 'corrupt-'));
      writeFileSync(join(data, 'decom.sqlite'), `this is not a database ${'x'.repeat(5_000)}`);
      const run = await runBuiltDecom(['start'], { PORT: '0', HOST: '127.0.0.1', DECOM_DATA_DIR: data }, { timeoutMs: 60_000 });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`SQLite file ${join(data, 'decom.sqlite')}: file is not a database`);
      expect(run.stderr).not.toMatch(STACK_LINE);
    }, 60_000);
  });

  describe('the bundled Kubernetes API server', () => {
    it('decom worker without KUBECONFIG and without a running engine says where the kubeconfig would be', async () => {
      const data = mkdtempSync(join(dir, 'nokube-'));
      const run = await runBuiltDecom(['worker'], { DECOM_DATA_DIR: data, REDIS_URL: 'redis://127.0.0.1:1' });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`KUBECONFIG is required`);
      expect(run.stderr).toContain(join(data, 'kubeconfig'));
    });

    it('decom start writes its kubeconfig into the data folder and logs the path; it works and is removed at stop', async () => {
      const data = mkdtempSync(join(dir, 'kube-'));
      const kubeconfig = join(data, 'kubeconfig');
      const child = spawn(process.execPath, [DECOM_BIN, 'start'], {
        cwd: resolve('.'),
        env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', PORT: '0', HOST: '127.0.0.1', DECOM_DATA_DIR: data },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      try {
        const deadline = Date.now() + 45_000;
        while (!output.includes('Decom is running') && Date.now() < deadline && child.exitCode === null)
          await new Promise((r) => setTimeout(r, 100));
        const line = output
          .split('\n')
          .filter((l) => l.startsWith('{'))
          .map((l) => JSON.parse(l) as { kubeconfig?: string; server?: string; msg: string })
          .find((l) => l.kubeconfig);
        expect(line).toMatchObject({ kubeconfig, msg: expect.stringContaining(`kubeconfig for it: ${kubeconfig}`) });
        const kc = new KubeConfig();
        kc.loadFromFile(kubeconfig);
        expect(kc.getCurrentCluster()?.server).toBe(line!.server);
        const namespaces = await KubernetesObjectApi.makeApiClient(kc).list('v1', 'Namespace');
        expect(namespaces.items.map((n) => n.metadata?.name)).toContain('default');

        // `decom worker` on the same data folder, with no KUBECONFIG, takes the bundled server's kubeconfig.
        const redis = await useRedis();
        const worker = spawn(process.execPath, [DECOM_BIN, 'worker'], {
          cwd: resolve('.'),
          env: {
            PATH: process.env['PATH'] ?? '',
            HOME: process.env['HOME'] ?? '',
            DECOM_DATA_DIR: data,
            REDIS_URL: redis.url,
            DECOM_QUEUE_PREFIX: redis.prefix('cli-worker'),
            DECOM_METRICS_PORT: '0',
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let workerOutput = '';
        worker.stdout.on('data', (chunk: Buffer) => (workerOutput += chunk.toString()));
        worker.stderr.on('data', (chunk: Buffer) => (workerOutput += chunk.toString()));
        try {
          const workerDeadline = Date.now() + 30_000;
          while (!workerOutput.includes('worker ready') && Date.now() < workerDeadline && worker.exitCode === null)
            await new Promise((r) => setTimeout(r, 100));
          expect(workerOutput).toContain(`"kubeconfig":"${kubeconfig}"`);
          expect(workerOutput).toContain('worker ready');
        } finally {
          worker.kill('SIGTERM');
          await once(worker, 'exit');
          await redis.stop();
        }
      } finally {
        child.kill('SIGTERM');
        await once(child, 'exit');
      }
      expect(existsSync(kubeconfig)).toBe(false);
    }, 60_000);
  });

  describe('docs/adapter-tools.md "plan" example, as written', () => {
    it('plans a deletion held by a finalizer on a running engine, with the kubeconfig from the data folder', async () => {
      const fixture = await startTestEngine({ adaptersDir: resolve('config/adapters') });
      try {
        const api = `${fixture.engine.url}/api/hyperfleet/v1`;
        const post = (path: string, body: unknown, method = 'POST') =>
          fetch(`${api}${path}`, {
            method,
            headers: { 'content-type': 'application/json' },
            ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
          });
        const id = ((await (await post('/clusters', { kind: 'Cluster', name: 'plan-demo', spec: {} })).json()) as { id: string }).id;
        await until(async () => {
          const cluster = (await (await fetch(`${api}/clusters/${id}`)).json()) as {
            status: { conditions: { type: string; status: string }[] };
          };
          return cluster.status.conditions.some((c) => c.type === 'Reconciled' && c.status === 'True');
        });
        // Step 2 of the example: hold the ConfigMap with a finalizer (kubectl patch), through the written kubeconfig.
        const kc = new KubeConfig();
        kc.loadFromFile(join(fixture.dataDir, 'kubeconfig'));
        const kube = KubernetesObjectApi.makeApiClient(kc);
        const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cluster-${id}-config`, namespace: id.toLowerCase() } };
        await kube.patch(
          { ...configMap, metadata: { ...configMap.metadata, finalizers: ['example.com/hold'] } },
          undefined,
          undefined,
          undefined,
          undefined,
          'application/merge-patch+json' as never,
        );
        expect((await post(`/clusters/${id}`, undefined, 'DELETE')).status).toBe(202);
        await until(async () => (await kube.read(configMap)).metadata?.deletionTimestamp !== undefined);

        const env = { PORT: new URL(fixture.engine.url).port, DECOM_DATA_DIR: fixture.dataDir };
        const plan = await runBuiltDecom(['adapter', 'plan', '--task-config', 'config/adapters/validation.yaml', '--resource', id], env);
        expect(plan.stderr).toBe('');
        expect(plan.code).toBe(1);
        expect(plan.stdout).toMatch(/keep +Namespace \S+ \(clusterNamespace\): .*delete\.when = false/);
        // The engine's DELETE already set its deletionTimestamp: the plan waits for it, as a run does.
        expect(plan.stdout).toMatch(
          /pending +ConfigMap \S+ \(clusterConfigMap\): deletion in progress since \S+ \(finalizers: example\.com\/hold\); not deleted again/,
        );
        expect(plan.stdout).toContain('Outcome: BLOCKED');
        expect(plan.stdout).toMatch(
          /validation clusterConfigMap: deletion in progress since \S+ \(finalizers: example\.com\/hold\); not deleted again/,
        );

        // Step 5: release the finalizer; the real deletion completes (GET → 404).
        await kube.patch(
          { ...configMap, metadata: { ...configMap.metadata, finalizers: [] } },
          undefined,
          undefined,
          undefined,
          undefined,
          'application/merge-patch+json' as never,
        );
        await until(async () => (await fetch(`${api}/clusters/${id}`)).status === 404);
      } finally {
        await fixture.stop();
      }
    }, 90_000);
  });
});

async function until(check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
