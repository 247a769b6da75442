/**
 * The limits kube-apiserver puts on what a client sends: body size (413), nesting depth (400) and the time
 * to send a whole request (408). Each answer is the real server's, and the server keeps serving after it.
 */
import { request } from 'node:http';
import { AppsV1Api } from '@kubernetes/client-node';
import { startLocalKube, type LocalKube } from './index.js';

const deployment = (name: string, extraSpec: Record<string, unknown> = {}) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: 'default' },
  spec: {
    ...extraSpec,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'i' }] } },
  },
});

/** A JSON text nesting objects `depth` levels deep. */
const deepJson = (depth: number): string => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

/** Sends a raw request and resolves with the status and body of the answer (or the socket error). */
function send(
  kube: LocalKube,
  options: { path: string; headers: Record<string, string | number>; chunks: readonly string[]; end?: boolean },
): Promise<{ status: number; body: string } | { error: string }> {
  const url = new URL(kube.url);
  return new Promise((resolve) => {
    const req = request({ host: url.hostname, port: url.port, method: 'POST', path: options.path, headers: options.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', (error) => resolve({ error: error.message }));
    });
    // Writing may fail once the server has answered and closed: the answer is what the test looks at.
    req.on('error', (error) => resolve({ error: error.message }));
    // Node's client holds the headers back until the first write: send them now, as a client would.
    req.flushHeaders();
    for (const chunk of options.chunks) req.write(chunk);
    if (options.end !== false) req.end();
  });
}

describe('request limits', () => {
  let kube: LocalKube;

  beforeAll(async () => {
    kube = await startLocalKube({ requestTimeoutMs: 400 });
  });
  afterAll(() => kube.close());

  const create = (body: string) =>
    fetch(`${kube.url}/apis/apps/v1/namespaces/default/deployments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });

  it('refuses a body nested deeper than the limit with 400 BadRequest, and still serves', async () => {
    const deep = JSON.stringify(deployment('deep')).replace('"spec":{', `"spec":{"x":${deepJson(100_000)},`);
    const answer = await create(deep);
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({
      kind: 'Status',
      reason: 'BadRequest',
      code: 400,
      message: expect.stringContaining('exceeded max depth'),
    });
    const apps = kube.kubeConfig().makeApiClient(AppsV1Api);
    await expect(apps.createNamespacedDeployment({ namespace: 'default', body: deployment('after-deep') })).resolves.toMatchObject({
      metadata: { name: 'after-deep' },
    });
  });

  it('takes a body nested up to the limit (a deep but sane manifest is not refused)', async () => {
    const answer = await create(JSON.stringify(deployment('nested-400')).replace('"spec":{', `"spec":{"x":${deepJson(400)},`));
    expect(answer.status).toBe(201);
  });

  it('refuses a deep merge patch with 400 too', async () => {
    const answer = await fetch(`${kube.url}/apis/apps/v1/namespaces/default/deployments/after-deep`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/merge-patch+json' },
      body: `{"metadata":{"annotations":${deepJson(100_000)}}}`,
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ reason: 'BadRequest', message: expect.stringContaining('exceeded max depth') });
  });

  it('answers 413 RequestEntityTooLarge to a declared length over 3 MiB without reading it', async () => {
    const answer = await send(kube, {
      path: '/api/v1/namespaces/default/configmaps',
      headers: { 'content-type': 'application/json', 'content-length': 30 * 1024 * 1024 },
      chunks: [],
      end: false,
    });
    expect(answer).toMatchObject({ status: 413 });
    expect(JSON.parse((answer as { body: string }).body)).toMatchObject({
      kind: 'Status',
      reason: 'RequestEntityTooLarge',
      code: 413,
      message: 'Request entity too large: limit is 3145728',
    });
  });

  it('answers 413 to a chunked body once it passes 3 MiB', async () => {
    const chunk = 'x'.repeat(1024 * 1024);
    const answer = await send(kube, {
      path: '/api/v1/namespaces/default/configmaps',
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      chunks: ['{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"big"},"data":{"a":"', chunk, chunk, chunk, chunk],
      end: false,
    });
    expect(answer).toMatchObject({ status: 413 });
    expect(kube.peek('v1', 'ConfigMap', 'default', 'big')).toBeUndefined();
  });

  it('answers 408 to a request whose body stops half-way, instead of holding the socket', async () => {
    const answer = await send(kube, {
      path: '/api/v1/namespaces/default/configmaps',
      headers: { 'content-type': 'application/json', 'content-length': 1000 },
      chunks: ['{"apiVersion":"v1",'],
      end: false,
    });
    expect(answer).toMatchObject({ status: 408 });
  });
});
