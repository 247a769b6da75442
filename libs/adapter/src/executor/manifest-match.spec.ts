import { describeDrift, manifestDifferences } from './manifest-match.js';

describe('manifestDifferences (seed 003 AdoptIfMatching: every field the manifest sets must match)', () => {
  const existing = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'd', uid: 'u', labels: { app: 'a', extra: 'theirs' }, annotations: { note: 'x' } },
    spec: { containers: [{ name: 'c', image: 'nginx:1', imagePullPolicy: 'IfNotPresent' }] },
  };

  it('matches a manifest whose fields are a subset, with server defaults inside list items', () => {
    const desired = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', namespace: 'd', labels: { app: 'a' } },
      spec: { containers: [{ name: 'c', image: 'nginx:1' }] },
    };
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

  it('ignores the selectable ownership label decom.io/managed-by like the annotation, not other labels', () => {
    expect(manifestDifferences({ metadata: { labels: { app: 'a', 'decom.io/managed-by': 'validation' } } }, existing)).toEqual([]);
    expect(manifestDifferences({ metadata: { labels: { 'decom.io/other': 'x' } } }, existing)).toEqual(['metadata.labels.decom.io/other']);
  });

  it('compares a Secret stringData manifest with the base64 data a real API server stores (stringData is never returned)', () => {
    const desired = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, type: 'Opaque', stringData: { token: 'abc' } };
    const stored = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 's', uid: 'u' },
      type: 'Opaque',
      data: { token: Buffer.from('abc').toString('base64') },
    };
    expect(manifestDifferences(desired, stored)).toEqual([]);
    const other = { ...stored, data: { token: Buffer.from('xyz').toString('base64') } };
    expect(manifestDifferences(desired, other)).toEqual(['data.token']);
    expect(describeDrift(desired, other, ['data.token'])).toEqual([
      `data.token: manifest "${Buffer.from('abc').toString('base64')}", object "${Buffer.from('xyz').toString('base64')}"`,
    ]);
  });
});
