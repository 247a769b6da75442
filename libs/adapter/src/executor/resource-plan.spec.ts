import type { KubeObject } from '../transport/resource-transport.port.js';
import type { Evaluation } from './execution-context.js';
import { decideApply, decideResourceStep } from './resource-plan.js';

const obj = (generation?: number): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'cm', ...(generation !== undefined && { annotations: { 'hyperfleet.io/generation': String(generation) } }) },
});
const yes: Evaluation = { ok: true, value: true };
const no: Evaluation = { ok: true, value: false };
const boom: Evaluation = { ok: false, error: 'No such key: clustr' };

describe('decideResourceStep (seeds/000 "Executor Behavior Change"; Decom P9)', () => {
  it.each<[string, Parameters<typeof decideResourceStep>[0], string]>([
    ['no lifecycle → apply', { name: 'r', propagationPolicy: 'Background' }, 'apply'],
    ['delete.when false → apply (not deleting yet)', { name: 'r', deleteWhen: no, propagationPolicy: 'Background' }, 'apply'],
    ['delete.when true + present → delete', { name: 'r', present: obj(), deleteWhen: yes, propagationPolicy: 'Orphan' }, 'delete'],
    ['delete.when true + absent → delete (no-op, #1)', { name: 'r', deleteWhen: yes, propagationPolicy: 'Background' }, 'delete'],
    [
      'delete.when eval error → blocked, never apply',
      { name: 'r', present: obj(), deleteWhen: boom, propagationPolicy: 'Background' },
      'blocked',
    ],
    ['delete.when non-bool → blocked', { name: 'r', deleteWhen: { ok: true, value: 'yes' }, propagationPolicy: 'Background' }, 'blocked'],
    ['create.when false + absent → create-skipped', { name: 'r', createWhen: no, propagationPolicy: 'Background' }, 'create-skipped'],
    [
      'create.when false + present → apply (ignored)',
      { name: 'r', present: obj(), createWhen: no, propagationPolicy: 'Background' },
      'apply',
    ],
    ['create.when error + absent → blocked', { name: 'r', createWhen: boom, propagationPolicy: 'Background' }, 'blocked'],
    ['create.when true + absent → apply', { name: 'r', createWhen: yes, propagationPolicy: 'Background' }, 'apply'],
    [
      'delete.when true wins over create.when false',
      { name: 'r', deleteWhen: yes, createWhen: no, propagationPolicy: 'Background' },
      'delete',
    ],
  ])('%s', (_, input, kind) => {
    expect(decideResourceStep(input).kind).toBe(kind);
  });

  it('carries the policy and the reasons', () => {
    expect(decideResourceStep({ name: 'r', present: obj(), deleteWhen: yes, propagationPolicy: 'Foreground' })).toEqual({
      kind: 'delete',
      policy: 'Foreground',
      present: obj(),
    });
    expect(decideResourceStep({ name: 'r', createWhen: no, propagationPolicy: 'Background' })).toEqual({
      kind: 'create-skipped',
      reason: 'r: lifecycle.create.when condition evaluated to false',
    });
    expect(decideResourceStep({ name: 'r', deleteWhen: boom, propagationPolicy: 'Background' })).toEqual({
      kind: 'blocked',
      reason: 'lifecycle.delete.when could not be evaluated: No such key: clustr',
    });
  });
});

describe('decideApply (hyperfleet.io/generation comparison, §2.6 c)', () => {
  it.each<[string, KubeObject | undefined, KubeObject, boolean, string, string]>([
    ['absent → create', undefined, obj(1), false, 'create', 'resource not found'],
    ['same generation → skip', obj(2), obj(2), false, 'skip', 'generation 2 unchanged'],
    ['both missing = 0 → skip', obj(), obj(), false, 'skip', 'generation 0 unchanged'],
    ['changed → update', obj(1), obj(2), false, 'update', 'generation changed 1->2'],
    ['changed + recreate_on_change → recreate', obj(1), obj(2), true, 'recreate', 'generation changed 1->2'],
  ])('%s', (_, existing, desired, recreate, operation, reason) => {
    expect(decideApply(desired, existing, recreate)).toEqual({ operation, reason });
  });

  it.each<[string, KubeObject | undefined, boolean, string]>([
    ['absent → create', undefined, false, 'create'],
    ['same generation → update', obj(2), false, 'update'],
    ['same generation + recreate_on_change → recreate', obj(2), true, 'recreate'],
  ])("replaceUnchanged (HyperFleet's dry-run recording client): %s", (_, existing, recreate, operation) => {
    expect(decideApply(obj(2), existing, recreate, true).operation).toBe(operation);
  });
});
