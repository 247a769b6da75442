import { KubernetesObjectApi } from '@kubernetes/client-node';
import { REALISTIC_CONTROLLER_DELAY_MS, startLocalKube, type LocalKube } from './index.js';
import { apiFailure } from './testing/api-failure.js';

describe('list with selectors and paging through KubernetesObjectApi', () => {
  let kube: LocalKube;
  let api: KubernetesObjectApi;
  /** `namespace: null` lists across all namespaces. */
  const names = async (labelSelector?: string, fieldSelector?: string, namespace: string | null = 'default') =>
    (await api.list('v1', 'ConfigMap', namespace ?? undefined, undefined, undefined, undefined, fieldSelector, labelSelector)).items.map(
      (i) => `${i.metadata?.namespace}/${i.metadata?.name}`,
    );

  beforeAll(async () => {
    kube = await startLocalKube({ controllerDelayMs: REALISTIC_CONTROLLER_DELAY_MS });
    api = KubernetesObjectApi.makeApiClient(kube.kubeConfig());
    kube.seed({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'other' } });
    const seeds: [string, string, Record<string, string>][] = [
      ['default', 'web-1', { app: 'web', 'hyperfleet.io/generation': '1' }],
      ['default', 'web-2', { app: 'web', 'hyperfleet.io/generation': '2', tier: 'front' }],
      ['default', 'db', { app: 'db' }],
      ['default', 'plain', {}],
      ['other', 'web-3', { app: 'web' }],
    ];
    for (const [namespace, name, labels] of seeds)
      kube.seed({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace, labels } });
  });
  afterAll(() => kube.close());

  it.each([
    [undefined, ['default/db', 'default/plain', 'default/web-1', 'default/web-2']],
    ['app=web', ['default/web-1', 'default/web-2']],
    ['app==db', ['default/db']],
    ['app!=web', ['default/db', 'default/plain']],
    ['app in (web,db)', ['default/db', 'default/web-1', 'default/web-2']],
    ['app notin (web)', ['default/db', 'default/plain']],
    ['tier', ['default/web-2']],
    ['!app', ['default/plain']],
    ['app=web,hyperfleet.io/generation=2', ['default/web-2']],
  ])('labelSelector %j', async (selector, expected) => {
    expect(await names(selector)).toEqual(expected);
  });

  it('fieldSelector on metadata.name and metadata.namespace, and lists across namespaces', async () => {
    expect(await names(undefined, 'metadata.name=db')).toEqual(['default/db']);
    expect(await names(undefined, 'metadata.name!=db,metadata.name!=plain')).toEqual(['default/web-1', 'default/web-2']);
    expect(await names('app=web', undefined, null)).toEqual(['default/web-1', 'default/web-2', 'other/web-3']);
    expect(await names(undefined, 'metadata.namespace=other', null)).toEqual(['other/web-3']);
  });

  it('answers 400 BadRequest for a selector that does not parse', async () => {
    expect(await apiFailure(names('app in (web'))).toMatchObject({ code: 400, status: { reason: 'BadRequest' } });
    expect(await apiFailure(names(undefined, 'spec.x=1'))).toMatchObject({
      code: 400,
      status: { message: 'field label not supported: spec.x' },
    });
  });

  it('returns a typed List with the current resourceVersion and built-in items without apiVersion/kind', async () => {
    const list = await api.list('v1', 'ConfigMap', 'default');
    expect(list.kind).toBe('ConfigMapList');
    expect(list.metadata?.resourceVersion).toMatch(/^\d+$/);
    expect(list.items[0]!.kind).toBeUndefined();
  });

  it('pages with limit and continue', async () => {
    const first = await api.list('v1', 'ConfigMap', 'default', undefined, undefined, undefined, undefined, undefined, 3);
    expect(first.items.map((i) => i.metadata?.name)).toEqual(['db', 'plain', 'web-1']);
    expect(first.metadata?._continue).toBeTruthy();
    const second = await api.list(
      'v1',
      'ConfigMap',
      'default',
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      3,
      first.metadata?._continue,
    );
    expect(second.items.map((i) => i.metadata?.name)).toEqual(['web-2']);
    expect(second.metadata?._continue).toBeUndefined();
  });
});
