import {
  MANAGED_BY_LABEL,
  OWNER_ANNOTATION,
  OWNER_ID_LABEL,
  isOwnedBy,
  managedByValue,
  ownerLabels,
  withOwner,
  withoutOwnershipMarks,
} from './ownership.js';
import type { KubeObject } from '../transport/resource-transport.port.js';

describe('ownership marker: the decom.io/owner annotation and the selectable decom.io/managed-by and decom.io/owner-id labels', () => {
  const object: KubeObject = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'cm', namespace: 'd', labels: { app: 'a' }, annotations: { note: 'x' } },
  };

  it('stamps the labels where it stamps the annotation, keeping the other labels and annotations', () => {
    const marked = withOwner(object, 'Cluster/c1/validation');
    expect(marked.metadata.annotations).toEqual({ note: 'x', [OWNER_ANNOTATION]: 'Cluster/c1/validation' });
    expect(marked.metadata.labels).toEqual({ app: 'a', [MANAGED_BY_LABEL]: 'validation', [OWNER_ID_LABEL]: 'c1' });
    const id = '019ad7a4-5c1e-7c3a-9b2e-4f1d2c3b4a59';
    expect(ownerLabels(`NodePool/${id}/np-configmap`)).toEqual({ [MANAGED_BY_LABEL]: 'np-configmap', [OWNER_ID_LABEL]: id });
  });

  it("decides ownership by the annotation only: the label alone, or another resource's annotation, is not ours", () => {
    const labelOnly = { ...object, metadata: { ...object.metadata, labels: { [MANAGED_BY_LABEL]: 'validation' } } };
    expect(isOwnedBy(labelOnly, 'Cluster/c1/validation')).toBe(false);
    expect(isOwnedBy(withOwner(object, 'Cluster/c2/validation'), 'Cluster/c1/validation')).toBe(false);
    expect(isOwnedBy(withOwner(object, 'Cluster/c1/validation'), 'Cluster/c1/validation')).toBe(true);
  });

  it('stamps no label for an adapter name that is not a valid label value', () => {
    expect(managedByValue('np-configmap')).toBe('np-configmap');
    expect(managedByValue('x'.repeat(64))).toBeUndefined();
    expect(managedByValue('-bad')).toBeUndefined();
    const marked = withOwner(object, `Cluster/c1/${'x'.repeat(64)}`);
    expect(marked.metadata.labels).toEqual({ app: 'a', [OWNER_ID_LABEL]: 'c1' });
    expect(withOwner(object, `Cluster/${'y'.repeat(64)}/${'x'.repeat(64)}`).metadata.labels).toEqual({ app: 'a' });
    expect(marked.metadata.annotations?.[OWNER_ANNOTATION]).toBe(`Cluster/c1/${'x'.repeat(64)}`);
  });

  it('removes the labels with the annotation when an object is orphaned, and says so', () => {
    const { object: released, removed } = withoutOwnershipMarks(withOwner(object, 'Cluster/c1/validation'));
    expect(released.metadata.labels).toEqual({ app: 'a' });
    expect(released.metadata.annotations).toEqual({ note: 'x' });
    expect(removed).toEqual([`annotation ${OWNER_ANNOTATION}`, `label ${MANAGED_BY_LABEL}`, `label ${OWNER_ID_LABEL}`]);
  });
});
