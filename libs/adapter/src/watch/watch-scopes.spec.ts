import { resolve } from 'node:path';
import { loadTaskConfigFile, parseTaskConfig } from '../config/task-config.parser.js';
import { describeScope, watchScopes } from './watch-scopes.js';

const configmapIn = (namespace: string) => `
params:
  - name: clusterId
    source: event.id
resources:
  - name: cm
    manifest:
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: 'cm-{{ .clusterId }}'
        namespace: ${namespace}
    discovery:
      by_name: 'cm-{{ .clusterId }}'
      namespace: ${namespace}
`;

describe('watchScopes: one watch per (kind, namespace scope) of the hosted adapters', () => {
  it('covers the shipped adapters with three cluster-wide watches selected by decom.io/managed-by', async () => {
    const adapters = [
      { name: 'validation', task: await loadTaskConfigFile(resolve('config/adapters/validation.yaml')) },
      { name: 'np-configmap', task: await loadTaskConfigFile(resolve('config/adapters/np-configmap.yaml')) },
    ];
    expect(watchScopes(adapters).map((s) => [describeScope(s), s.labelSelector])).toEqual([
      ['batch/v1 Job (all namespaces)', 'decom.io/managed-by in (validation)'],
      ['v1 ConfigMap (all namespaces)', 'decom.io/managed-by in (np-configmap,validation)'],
      ['v1 Namespace (all namespaces)', 'decom.io/managed-by in (validation)'],
    ]);
  });

  it('watches a literal namespace alone, unless the kind is already watched everywhere', () => {
    const fixed = { name: 'fixed', task: parseTaskConfig(configmapIn('tenants'), 'fixed.yaml') };
    const other = { name: 'other', task: parseTaskConfig(configmapIn('other-ns'), 'other.yaml') };
    expect(watchScopes([fixed, other]).map((s) => [describeScope(s), s.adapters])).toEqual([
      ['v1 ConfigMap in other-ns', ['other']],
      ['v1 ConfigMap in tenants', ['fixed']],
    ]);
    const templated = { name: 'templated', task: parseTaskConfig(configmapIn("'{{ .clusterId | lower }}'"), 'templated.yaml') };
    expect(watchScopes([fixed, templated]).map((s) => [describeScope(s), s.adapters])).toEqual([
      ['v1 ConfigMap (all namespaces)', ['fixed', 'templated']],
    ]);
  });

  it('leaves out an adapter whose name is not a valid label value (it keeps to the backoff re-runs)', () => {
    expect(watchScopes([{ name: `a${'x'.repeat(63)}`, task: parseTaskConfig(configmapIn('tenants'), 'long.yaml') }])).toEqual([]);
  });
});
