import { reconcileCloudEvent } from './job-names.js';
import { TerminalError } from './job-queue.port.js';
import { InvalidReconcileEvent, parseReconcileEvent } from './reconcile-event.js';

describe('parseReconcileEvent (Sentinel CloudEvent shape)', () => {
  const data = {
    id: 'np1',
    kind: 'NodePool',
    href: '/api/hyperfleet/v1/clusters/c1/nodepools/np1',
    generation: 2,
    owner_references: { id: 'c1', kind: 'Cluster', href: '/api/hyperfleet/v1/clusters/c1' },
  };

  it("accepts what Decom's dispatch and HyperFleet's Sentinel publish", () => {
    const ours = reconcileCloudEvent(data, 'np-configmap.nodepool-np1.gen-2', '2026-11-29T12:00:00Z');
    expect(parseReconcileEvent(ours)).toBe(ours);
    const sentinel = {
      specversion: '1.0',
      type: 'com.redhat.hyperfleet.nodepool.reconcile',
      source: 'hyperfleet-sentinel',
      id: '0193e0c1-7a2b-7c3d-8e4f-5a6b7c8d9e0f',
      datacontenttype: 'application/json',
      data,
    };
    expect(parseReconcileEvent(sentinel).data.id).toBe('np1');
  });

  it('refuses a malformed payload as terminal, naming every problem', () => {
    const bad = () => parseReconcileEvent({ specversion: '1.0', type: '', source: 'x', data: { id: 'c1', generation: 0 } });
    expect(bad).toThrow(InvalidReconcileEvent);
    expect(bad).toThrow(TerminalError);
    expect(bad).toThrow(
      /id: required.*\/type: must NOT have fewer than 1 characters.*data\.kind: required string.*data\.href.*data\.generation/,
    );
    expect(() => parseReconcileEvent('nope')).toThrow(/not an object/);
  });
});
