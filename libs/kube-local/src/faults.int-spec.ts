import { ApiException, KubernetesObjectApi } from '@kubernetes/client-node';
import { REALISTIC_CONTROLLER_DELAY_MS, startLocalKube, type LocalKube } from './index.js';
import { apiFailure } from './testing/api-failure.js';
import { obj, type TestObject } from './testing/test-object.js';

const cm = (name: string): TestObject => obj({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' } });

/** Awaits a call that must fail below HTTP (no status at all) and returns the error text with its causes. */
async function transportFailure(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    if (error instanceof ApiException) throw new Error(`expected a transport failure, got HTTP ${error.code}`);
    const parts: string[] = [];
    for (let e: unknown = error; e instanceof Error; e = (e as Error & { cause?: unknown }).cause) {
      parts.push(`${(e as Error & { code?: string }).code ?? ''} ${e.message}`);
    }
    return parts.join(' | ');
  }
  throw new Error('expected the call to fail');
}

describe('fault injection and the request log', () => {
  let kube: LocalKube;
  let api: KubernetesObjectApi;

  beforeEach(async () => {
    kube = await startLocalKube({ controllerDelayMs: REALISTIC_CONTROLLER_DELAY_MS });
    api = KubernetesObjectApi.makeApiClient(kube.kubeConfig());
    kube.seed({ ...cm('a') });
    kube.seed({ ...cm('b') });
  });
  afterEach(() => kube.close());

  it('answers matching requests with an injected Status, `times` times', async () => {
    const fault = kube.faults.add({ method: 'DELETE', kind: 'ConfigMap', name: 'a', status: 403, message: 'denied by test', times: 1 });
    expect(await apiFailure(api.delete(cm('a')))).toMatchObject({
      code: 403,
      status: { kind: 'Status', status: 'Failure', reason: 'Forbidden', message: 'denied by test', code: 403 },
    });
    expect(kube.peek('v1', 'ConfigMap', 'default', 'a')).toBeDefined();
    await api.delete(cm('a'));
    expect(kube.peek('v1', 'ConfigMap', 'default', 'a')).toBeUndefined();
    expect(fault.hits).toBe(1);
    expect(kube.requestsMatching({ method: 'DELETE', name: 'a' }).map((r) => [r.status, r.fault])).toEqual([
      [403, 'status'],
      [200, undefined],
    ]);
  });

  it('matches a path pattern until removed or cleared', async () => {
    const fault = kube.faults.add({ pathPattern: /\/configmaps\/b$/, status: 500 });
    expect(await apiFailure(api.read(cm('b')))).toMatchObject({ code: 500, status: { reason: 'InternalError' } });
    expect(await apiFailure(api.read(cm('b')))).toMatchObject({ code: 500 });
    await api.read(cm('a'));
    fault.remove();
    await api.read(cm('b'));
    kube.faults.add({ pathPattern: '/configmaps/', status: 503 });
    expect(await apiFailure(api.read(cm('a')))).toMatchObject({ code: 503, status: { reason: 'ServiceUnavailable' } });
    kube.faults.clear();
    expect(kube.faults.active).toEqual([]);
    await api.read(cm('a'));
  });

  it('resets the connection: the client gets no answer and nothing happened', async () => {
    kube.faults.add({ verb: 'delete', kind: 'ConfigMap', connection: 'reset', times: 1 });
    expect(await transportFailure(api.delete(cm('a')))).toMatch(/ECONNRESET|socket hang up|other side closed|terminated/i);
    expect(kube.peek('v1', 'ConfigMap', 'default', 'a')).toBeDefined();
    expect(kube.requestsMatching({ verb: 'delete' })).toEqual([expect.objectContaining({ name: 'a', status: 0, fault: 'reset' })]);
  });

  it('resets after applying: the write happened but the answer is lost', async () => {
    kube.faults.add({ verb: 'delete', name: 'a', connection: 'reset', afterApply: true, times: 1 });
    await transportFailure(api.delete(cm('a')));
    expect(kube.peek('v1', 'ConfigMap', 'default', 'a')).toBeUndefined();
    expect(await apiFailure(api.delete(cm('a')))).toMatchObject({ code: 404 });
  });

  it('refuses connections while stopped, keeping state for when it listens again', async () => {
    await api.read(cm('a'));
    await kube.stopListening();
    expect(await transportFailure(api.read(cm('a')))).toMatch(/ECONNREFUSED/);
    await kube.startListening();
    expect((await api.read(cm('a'))).metadata?.name).toBe('a');
  });

  it('delays matching requests', async () => {
    kube.faults.add({ verb: 'get', delayMs: 150, times: 1 });
    const started = Date.now();
    await api.read(cm('a'));
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(kube.requestsMatching({ verb: 'get' })[0]).toMatchObject({ fault: 'delay', status: 200 });
  });

  it('records every request in order, with kind, namespace, name and status', async () => {
    await api.create(cm('c'));
    await api.delete(cm('b'));
    await api.delete(cm('a'));
    await apiFailure(api.delete(cm('a')));
    const log = kube.requests;
    expect(log[0]).toMatchObject({ seq: 1, method: 'GET', path: '/api/v1', status: 200 });
    expect(log[0]).not.toHaveProperty('kind');
    expect(log.slice(1).map((r) => [r.seq, r.method, r.kind, r.namespace, r.name, r.status])).toEqual([
      [2, 'POST', 'ConfigMap', 'default', 'c', 201],
      [3, 'DELETE', 'ConfigMap', 'default', 'b', 200],
      [4, 'DELETE', 'ConfigMap', 'default', 'a', 200],
      [5, 'DELETE', 'ConfigMap', 'default', 'a', 404],
    ]);
    expect(kube.requestsMatching({ method: 'delete', kind: 'ConfigMap' }).map((r) => r.name)).toEqual(['b', 'a', 'a']);
    kube.clearRequests();
    await api.read(cm('c'));
    expect(kube.requests.map((r) => r.seq)).toEqual([6]);
  });
});
