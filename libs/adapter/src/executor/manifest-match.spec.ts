import { manifestDifferences } from './manifest-match.js';

describe('manifestDifferences (seed 003 AdoptIfMatching: every field the manifest sets must match)', () => {
  const existing = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'd', uid: 'u', labels: { app: 'a', extra: 'theirs' }, annotations: { note: 'x' } },
    spec: { containers: [{ name: 'c', image: 'nginx:1', imagePullPolicy: 'IfNotPresent' }] },
  };

  it('matches a manifest whose fields are a subset, with server defaults inside list items', () => {
    const desired = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'd', labels: { app: 'a' } }, spec: { containers: [{ name: 'c', image: 'nginx:1' }] } };
    expect(manifestDifferences(desired, existing)).toEqual([]);
  });

  it('names every differing field by path: scalars, missing keys, list length, map vs scalar', () => {
    const desired = {
      metadata: { name: 'p', labels: { app: 'b', owner: 'me' } },
      spec: { containers: [{ name: 'c', image: 'nginx:2' }, { name: 'd' }] },
      data: { k: 'v' },
    };
    expect(manifestDifferences(desired, existing)).toEqual(['metadata.labels.app', 'metadata.labels.owner', 'spec.containers', 'data']);
    expect(manifestDifferences({ spec: { containers: [{ image: 'nginx:2' }] } }, existing)).toEqual(['spec.containers[0].image']);
    expect(manifestDifferences({ spec: { replicas: 1 } }, { spec: { replicas: '1' } })).toEqual(['spec.replicas']);
  });

  it('ignores the bookkeeping annotations hyperfleet.io/generation and decom.io/owner', () => {
    const desired = { metadata: { annotations: { 'hyperfleet.io/generation': '3', 'decom.io/owner': 'Cluster/x/a', note: 'x' } } };
    expect(manifestDifferences(desired, existing)).toEqual([]);
  });

  it('ignores the selectable ownership label decom.io/managed-by like the annotation (issue #16), not other labels', () => {
    expect(manifestDifferences({ metadata: { labels: { app: 'a', 'decom.io/managed-by': 'validation' } } }, existing)).toEqual([]);
    expect(manifestDifferences({ metadata: { labels: { 'decom.io/other': 'x' } } }, existing)).toEqual(['metadata.labels.decom.io/other']);
  });
});
