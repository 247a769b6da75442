import { decideAdoption } from './adoption-policy.js';
import { MANAGED_BY_LABEL, OWNER_ANNOTATION, OWNER_ID_LABEL } from './ownership.js';

const MARK = 'Cluster/c1/validation';
const existing = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'cm', namespace: 'd', resourceVersion: '7', annotations: { 'hyperfleet.io/generation': '1' } },
  data: { mode: 'auto', extra: 'theirs' },
};
const desired = (generation: string, mode = 'auto') => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'cm', namespace: 'd', annotations: { 'hyperfleet.io/generation': generation } },
  data: { mode },
});

describe("decideAdoption (seed 003 adoption policy, for an existing object that is not Decom's)", () => {
  it('Adopt, same generation: only the marker is added (the object is otherwise kept); the drift is named with both values', () => {
    const decision = decideAdoption('Adopt', desired('1', 'other'), existing, MARK);
    expect(decision).toMatchObject({
      kind: 'adopt',
      record: 'AdoptedWithDrift',
      drift: ['data.mode: manifest "other", object "auto"'],
      reason:
        'adopted as it is (generation 1 unchanged: marker added), differs from the manifest in data.mode: manifest "other", object "auto"',
    });
    expect(decision.kind === 'adopt' && decision.write).toEqual({
      ...existing,
      metadata: {
        ...existing.metadata,
        annotations: { ...existing.metadata.annotations, [OWNER_ANNOTATION]: MARK },
        labels: { [MANAGED_BY_LABEL]: 'validation', [OWNER_ID_LABEL]: 'c1' },
      },
    });
  });

  it('Adopt, changed generation: replaced by the manifest with the marker, at the read resourceVersion (never recreated)', () => {
    const decision = decideAdoption('Adopt', desired('2'), existing, MARK);
    expect(decision).toMatchObject({ kind: 'adopt', reason: 'adopted and updated (generation changed 1->2)' });
    expect(decision.kind === 'adopt' && decision.write.metadata).toMatchObject({
      resourceVersion: '7',
      annotations: { [OWNER_ANNOTATION]: MARK, 'hyperfleet.io/generation': '2' },
    });
    expect(decision.kind === 'adopt' && decision.write['data']).toEqual({ mode: 'auto' });
  });

  it('AdoptIfMatching: adopts a matching object keeping its other fields and taking the manifest generation; refuses a differing one', () => {
    const match = decideAdoption('AdoptIfMatching', desired('4'), existing, MARK);
    expect(match.kind === 'adopt' && match.write).toMatchObject({
      data: { mode: 'auto', extra: 'theirs' },
      metadata: { annotations: { [OWNER_ANNOTATION]: MARK, 'hyperfleet.io/generation': '4' } },
    });
    expect(decideAdoption('AdoptIfMatching', desired('4', 'manual'), existing, MARK)).toEqual({
      kind: 'refuse',
      reason: 'AdoptionConflict',
      message:
        "ConfigMap d/cm exists, is not Decom's and differs from the manifest in data.mode (adoptionPolicy AdoptIfMatching): nothing written",
      differences: ['data.mode'],
    });
  });

  it('FailIfExists: refuses whatever the object holds', () => {
    expect(decideAdoption('FailIfExists', desired('1'), existing, MARK)).toMatchObject({ kind: 'refuse', reason: 'AlreadyExists' });
  });

  it('never adopts an object another Decom resource or adapter owns, whatever the policy', () => {
    const owned = { ...existing, metadata: { ...existing.metadata, annotations: { [OWNER_ANNOTATION]: 'Cluster/c2/validation' } } };
    expect(decideAdoption('Adopt', desired('1'), owned, MARK)).toEqual({
      kind: 'refuse',
      reason: 'AlreadyExists',
      message: `ConfigMap d/cm already exists and belongs to Cluster/c2/validation (${OWNER_ANNOTATION}): never adopted, nothing written`,
    });
  });

  describe('release markers', () => {
    const released = {
      ...existing,
      metadata: {
        ...existing.metadata,
        annotations: {
          'decom.io/released-from': 'Cluster/c1-old/validation',
          'decom.io/released-time': '2026-12-01T10:00:00.000Z',
          'decom.io/released-by': 'alice@example.com',
        },
      },
    };

    it.each(['Adopt', 'AdoptIfMatching'] as const)(
      '%s refuses a released object with Released, naming the former owner, when and by whom',
      (policy) => {
        expect(decideAdoption(policy, desired('1'), released, MARK)).toEqual({
          kind: 'refuse',
          reason: 'Released',
          message:
            'ConfigMap d/cm was released from Cluster/c1-old/validation at 2026-12-01T10:00:00.000Z by alice@example.com (decom.io/released-from) and is kept for whoever chose to keep it: not adopted, nothing written (adoptionPolicy AdoptReleased allows it)',
        });
      },
    );

    it('AdoptReleased adopts it as Adopt does and removes the release marker', () => {
      const decision = decideAdoption('AdoptReleased', desired('1'), released, MARK);
      expect(decision).toMatchObject({ kind: 'adopt', record: 'Adopted' });
      expect(decision.kind === 'adopt' && decision.write.metadata.annotations).toEqual({
        [OWNER_ANNOTATION]: MARK,
        'hyperfleet.io/generation': '1',
      });
    });

    it('Adopt over a changed generation names what the manifest overwrote', () => {
      const decision = decideAdoption('Adopt', desired('2', 'manual'), existing, MARK);
      expect(decision).toMatchObject({ kind: 'adopt', record: 'Adopted', overwrote: ['data.mode: manifest "manual", object "auto"'] });
    });
  });
});
