import { createServer } from 'node:net';
import { StartupState } from '@decom/health';
import { openStartupGate, type StartupGate } from './startup-gate.js';

describe('start-up gate on the API port', () => {
  let gate: StartupGate;
  let base: string;
  const state = new StartupState(() => new Date('2026-12-03T06:00:00Z'));

  beforeAll(async () => {
    state.waiting('postgres', 'connect ECONNREFUSED 127.0.0.1:5999', 3);
    gate = await openStartupGate(state, 0, '127.0.0.1');
    base = `http://127.0.0.1:${gate.port}`;
  });
  afterAll(() => gate.close());

  it('/healthz answers 200: the process is alive', async () => {
    const answer = await fetch(`${base}/healthz`);
    expect([answer.status, await answer.json()]).toEqual([200, { status: 'ok' }]);
  });

  it('/readyz answers 503 naming the dependency and since when', async () => {
    const answer = await fetch(`${base}/readyz?verbose=1`);
    expect(answer.status).toBe(503);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(await answer.json()).toEqual({
      status: 'not_ready',
      checks: {
        startup: {
          state: 'waiting',
          dependency: 'postgres',
          since: '2026-12-03T06:00:00.000Z',
          error: 'connect ECONNREFUSED 127.0.0.1:5999',
          attempts: 3,
        },
      },
    });
  });

  it('every other route answers 503 problem details with Retry-After, nothing of the request echoed but its path', async () => {
    const answer = await fetch(`${base}/api/hyperfleet/v1/clusters/abc?x=secret`, {
      method: 'DELETE',
      headers: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' },
    });
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('2');
    expect(answer.headers.get('content-type')).toBe('application/problem+json');
    expect(answer.headers.get('x-request-id')).toBe('0af7651916cd43dd8448eb211c80319c');
    const body = await answer.json();
    expect(body).toMatchObject({
      type: 'https://api.hyperfleet.io/errors/service-unavailable',
      status: 503,
      code: 'HYPERFLEET-SVC-001',
      instance: '/api/hyperfleet/v1/clusters/abc',
      trace_id: '0af7651916cd43dd8448eb211c80319c',
      detail:
        'Decom is not serving yet: waiting for postgres since 2026-12-03T06:00:00.000Z (connect ECONNREFUSED 127.0.0.1:5999); retry later',
    });
    expect(JSON.stringify(body)).not.toContain('secret');
  });

  it('a POST with a body gets its 503 too; HEAD gets the status without a body', async () => {
    const post = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ x }'.repeat(1000) }),
    });
    expect(post.status).toBe(503);
    const head = await fetch(`${base}/healthz`, { method: 'HEAD' });
    expect([head.status, await head.text()]).toEqual([200, '']);
  });

  it('close() frees the port for the API', async () => {
    const other = await openStartupGate(new StartupState(), 0, '127.0.0.1');
    await fetch(`http://127.0.0.1:${other.port}/healthz`);
    await other.close();
    const server = createServer();
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(other.port, '127.0.0.1', resolve));
    await new Promise((resolve) => server.close(resolve));
  });
});
