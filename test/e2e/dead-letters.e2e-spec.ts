/**
 * The dead-letter set over the API (`/api/decom/v1/jobs`): a terminal adapter failure (an RBAC 403 from
 * the bundled Kubernetes server) leaves a dead letter that anyone may list but only an administrator may
 * send back; once the fault is fixed, the retried job finishes the deletion. Embedded engine, in-process
 * queue, shipped adapters, header identities with `DECOM_ADMINS`.
 */
import { resolve } from 'node:path';
import { DemoApi, eventually } from '../../apps/cli/src/demo/api-client.js';
import { loggerInto } from './support/json-log-lines.js';
import { startTestEngine, type EngineFixture } from './engine-fixture.js';
import { ensureBuilt, runBuiltDecom } from './support/built-decom.js';

describe('dead letters over the API: list for everyone, retry for administrators', () => {
  let fixture: EngineFixture;
  let api: DemoApi;
  /** The engine's JSON log lines at info (the retry must be logged there, with the verified caller). */
  const lines: Record<string, unknown>[] = [];
  const jobs = async (method: string, path: string, identity: string, body?: unknown) => {
    const response = await fetch(`${fixture.engine.url}/api/decom/v1/jobs${path}`, {
      method,
      headers: { 'x-hyperfleet-identity': identity, ...(body !== undefined && { 'content-type': 'application/json' }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as any };
  };

  beforeAll(async () => {
    ensureBuilt();
    fixture = await startTestEngine({ adaptersDir: resolve('config/adapters'), admins: 'root@example.com', logger: loggerInto(lines) });
    api = new DemoApi(fixture.engine.url, 'root@example.com');
  }, 180_000);
  afterAll(async () => fixture?.stop());

  it('an operator sees the dead letter but gets 403 on retry; the admin retries it and the deletion completes', async () => {
    const id: string = (await api.call('POST', '/clusters', { kind: 'Cluster', name: 'dead-letter-retry', spec: {} })).body.id;
    await eventually('Reconciled', async () =>
      (await api.get(`/clusters/${id}`)).body.status.conditions.some((c: any) => c.type === 'Reconciled' && c.status === 'True')
        ? true
        : undefined,
    );
    const fault = fixture.engine.localKube!.faults.add({
      method: 'DELETE',
      kind: 'Namespace',
      name: id.toLowerCase(),
      status: 403,
      reason: 'Forbidden',
      message: 'RBAC: adapter may not delete',
    });
    expect((await api.call('DELETE', `/clusters/${id}`)).status).toBe(202);
    const dead = await eventually('the dead letter', async () => {
      const listed = await jobs('GET', '/failed?queue=adapter-run.validation', 'ops@example.com');
      return (listed.body.items as any[]).find((j) => j.id.includes(id));
    });
    expect(dead).toMatchObject({
      queue: 'adapter-run.validation',
      error: expect.stringContaining('RBAC: adapter may not delete'),
      failed_time: expect.stringMatching(/^\d{4}-/),
    });

    const refused = await jobs('POST', '/retry', 'ops@example.com', { queue: dead.queue, id: dead.id, reason: 'RBAC fixed' });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toContain("'ops@example.com' is not one");
    // The CLI goes through the same API (`--api`): it lists the dead letter, and the operator's retry is refused.
    const cli = (...args: string[]) => runBuiltDecom(['jobs', ...args, '--api', fixture.engine.url, '--as', 'ops@example.com']);
    const listed = await cli('failed', '--queue', dead.queue);
    expect({ code: listed.code, stderr: listed.stderr }).toEqual({ code: 0, stderr: '' });
    expect(listed.stdout).toContain(`  ${dead.queue}  ${dead.id}  attempts=`);
    const cliRefused = await cli('retry', dead.queue, dead.id, '--reason', 'try');
    expect(cliRefused.code).toBe(1);
    expect(cliRefused.stderr).toMatch(
      /^decom jobs: 403 retrying a job: retry job is restricted to administrators; 'ops@example.com' is not one\n$/,
    );
    // Still dead-lettered: the refusals changed nothing.
    expect((await jobs('GET', '/failed', 'ops@example.com')).body.items.map((j: any) => j.id)).toContain(dead.id);

    expect((await jobs('POST', '/retry', 'root@example.com', { queue: 'adapter-run.nope', id: dead.id })).body.detail).toMatch(
      /^unknown queue adapter-run\.nope; known queues: .*adapter-run\.validation/,
    );
    fault.remove();
    const retried = await jobs('POST', '/retry', 'root@example.com', { queue: dead.queue, id: dead.id, reason: 'RBAC fixed' });
    expect(retried).toEqual({ status: 200, body: { queue: dead.queue, id: dead.id, retried: true } });
    expect(lines.filter((l) => l['msg'] === 'dead-lettered job retried')).toEqual([
      expect.objectContaining({
        level: 30,
        queue: dead.queue,
        job_id: dead.id,
        caller: 'root@example.com',
        reason: 'RBAC fixed',
        trace_id: expect.stringMatching(/^[0-9a-f]{32}$/),
      }),
    ]);
    await eventually('hard deleted', async () => ((await api.get(`/clusters/${id}`)).status === 404 ? true : undefined), 20_000);
    expect((await jobs('GET', '/failed', 'ops@example.com')).body.items.map((j: any) => j.id)).not.toContain(dead.id);
    const again = await jobs('POST', '/retry', 'root@example.com', { queue: dead.queue, id: dead.id });
    expect(again.status).toBe(404);
    expect(again.body.detail).toBe(`no failed job ${dead.id} in ${dead.queue}`);
  }, 40_000);

  it('refuses a malformed body and unknown parameters with problem details', async () => {
    expect((await jobs('POST', '/retry', 'root@example.com', { queue: 'hard-delete' })).status).toBe(400);
    expect((await jobs('POST', '/retry', 'root@example.com', { queue: 'has space', id: 'x' })).body.errors[0]).toMatchObject({
      field: 'queue',
    });
    expect((await jobs('GET', '/failed?bogus=1', 'ops@example.com')).status).toBe(400);
    expect((await jobs('GET', '/failed?queue=adapter-run.nope', 'ops@example.com')).body.detail).toMatch(
      /^unknown queue adapter-run\.nope; known queues: /,
    );
  });
});
