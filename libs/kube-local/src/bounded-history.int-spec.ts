import { KubernetesObjectApi } from '@kubernetes/client-node';
import { appendBounded } from './bounded-history.js';
import { REALISTIC_CONTROLLER_DELAY_MS, startLocalKube, type LocalKube } from './index.js';

describe('bounded request and change history (a long-running embedded engine does not grow)', () => {
  it('appendBounded keeps the newest `limit` entries once 10 % over', () => {
    const entries: number[] = [];
    for (let i = 1; i <= 1_000; i++) appendBounded(entries, i, 100);
    expect(entries.length).toBeGreaterThanOrEqual(100);
    expect(entries.length).toBeLessThanOrEqual(110);
    expect(entries.at(-1)).toBe(1_000);
    expect(entries).toEqual(Array.from({ length: entries.length }, (_, i) => 1_000 - entries.length + 1 + i));
  });

  it('appendBounded with a limit of 0 keeps nothing (decom start reads no history back)', () => {
    const entries: number[] = [];
    for (let i = 1; i <= 10; i++) appendBounded(entries, i, 0);
    expect(entries).toEqual([]);
  });

  describe('through the server', () => {
    let kube: LocalKube;
    beforeAll(async () => {
      kube = await startLocalKube({ controllerDelayMs: REALISTIC_CONTROLLER_DELAY_MS, historyLimit: 40 });
    });
    afterAll(() => kube.close());

    it('keeps at most about historyLimit requests and changes; sequence numbers keep counting', async () => {
      const api = KubernetesObjectApi.makeApiClient(kube.kubeConfig());
      for (let i = 0; i < 120; i++) {
        await api.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}`, namespace: 'default' } });
      }
      expect(kube.requests.length).toBeLessThanOrEqual(44);
      expect(kube.changes.length).toBeLessThanOrEqual(44);
      expect(kube.requests.at(-1)).toMatchObject({ method: 'POST', name: 'cm-119' });
      expect(kube.requests.at(-1)!.seq).toBeGreaterThanOrEqual(120);
      expect(kube.changes.at(-1)).toMatchObject({ type: 'ADDED', name: 'cm-119' });
      // The objects themselves are all kept: only the look-back history is bounded.
      expect((await api.list('v1', 'ConfigMap', 'default')).items).toHaveLength(120);
    });
  });

  it('a server with historyLimit 0 records no requests or changes and still serves every object', async () => {
    const kube = await startLocalKube({ controllerDelayMs: REALISTIC_CONTROLLER_DELAY_MS, historyLimit: 0 });
    try {
      const api = KubernetesObjectApi.makeApiClient(kube.kubeConfig());
      for (let i = 0; i < 5; i++)
        await api.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}`, namespace: 'default' } });
      expect(kube.requests).toEqual([]);
      expect(kube.changes).toEqual([]);
      expect((await api.list('v1', 'ConfigMap', 'default')).items).toHaveLength(5);
    } finally {
      await kube.close();
    }
  });
});
