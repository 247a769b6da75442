import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { CelEvalError, compileCel, type CompiledCel } from './index.js';

/**
 * The expressions of seeds/000 "Example Task Config with Deletion", read unchanged from a verbatim
 * copy of its YAML, evaluated in the states an adapter goes through while deleting.
 */

interface SeedConfig {
  preconditions: Array<{ capture: Array<{ name: string; expression?: string }> }>;
  resources: Array<{ name: string; lifecycle: { delete: { when: { expression: string } } } }>;
  post: {
    payloads: Array<{
      build: {
        conditions: Array<{
          type: string;
          status: { expression: string };
          reason: { expression: string };
          message: { expression: string };
        }>;
        observed_generation: { expression: string };
      };
    }>;
  };
}

const seed = parse(readFileSync(new URL('./testdata/seed-000-task-config.yaml', import.meta.url), 'utf8')) as SeedConfig;
const build = seed.post.payloads[0]!.build;

const conditionExpressions = new Map(
  build.conditions.map((c) => [
    c.type,
    { status: compileCel(c.status.expression), reason: compileCel(c.reason.expression), message: compileCel(c.message.expression) },
  ]),
);
const deleteWhen = new Map(seed.resources.map((r) => [r.name, compileCel(r.lifecycle.delete.when.expression)]));
const observedGeneration = compileCel(build.observed_generation.expression);
const isDeletingCapture = compileCel(seed.preconditions[0]!.capture.find((c) => c.name === 'is_deleting')!.expression!);

const clusterNamespace = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'c1', resourceVersion: '11' } };
const clusterConfigMap = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'cluster-c1-config', namespace: 'c1', resourceVersion: '12' },
};
const clusterJob = {
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name: 'validation-c1-gen1', namespace: 'c1', resourceVersion: '13' },
};

const healthy = {
  executionStatus: 'success',
  resourcesSkipped: false,
  skipReason: '',
  errorReason: '',
  errorMessage: '',
  executionError: null,
  resourceErrors: {},
};
const failed = {
  executionStatus: 'failed',
  resourcesSkipped: false,
  skipReason: '',
  errorReason: 'ResourceFailed',
  errorMessage: 'discover clusterJob: connection refused',
  executionError: { phase: 'resources', step: 'clusterJob', message: 'connection refused' },
  resourceErrors: {},
};
const DELETED_TIME = '2026-03-01T10:00:00Z';

/** Absent objects' keys are left out of `resources`, never set to null (seed 000 "CEL resource presence pattern"). */
const states = {
  'not deleting': {
    vars: {
      is_deleting: false,
      deleted_time: null,
      generation: 1,
      adapter: healthy,
      resources: { clusterNamespace, clusterConfigMap, clusterJob },
    },
    Applied: ['True', 'ConfigMapApplied', 'Applied'],
    Available: ['True', 'ConfigMapAvailable', 'ConfigMap available'],
    Finalized: ['False', '', ''],
    Health: ['True', 'NoErrors', 'Adapter is healthy'],
    deleteWhen: { clusterNamespace: false, clusterConfigMap: false, clusterJob: false },
  },
  'deleting, all three objects present': {
    vars: {
      is_deleting: true,
      deleted_time: DELETED_TIME,
      generation: 2,
      adapter: healthy,
      resources: { clusterNamespace, clusterConfigMap, clusterJob },
    },
    Applied: ['True', 'ConfigMapApplied', 'Applied'],
    Available: ['True', 'ConfigMapAvailable', 'ConfigMap available'],
    Finalized: ['False', 'CleanupInProgress', 'Resource cleanup in progress'],
    Health: ['True', 'NoErrors', 'Adapter is healthy'],
    deleteWhen: { clusterNamespace: false, clusterConfigMap: false, clusterJob: true },
  },
  'deleting, Job gone': {
    vars: {
      is_deleting: true,
      deleted_time: DELETED_TIME,
      generation: 2,
      adapter: healthy,
      resources: { clusterNamespace, clusterConfigMap },
    },
    Applied: ['True', 'ConfigMapApplied', 'Applied'],
    Available: ['True', 'ConfigMapAvailable', 'ConfigMap available'],
    Finalized: ['False', 'CleanupInProgress', 'Resource cleanup in progress'],
    Health: ['True', 'NoErrors', 'Adapter is healthy'],
    deleteWhen: { clusterNamespace: false, clusterConfigMap: true, clusterJob: true },
  },
  'deleting, everything gone': {
    vars: { is_deleting: true, deleted_time: DELETED_TIME, generation: 2, adapter: healthy, resources: {} },
    // has(resources.clusterConfigMap.metadata.resourceVersion) with clusterConfigMap absent: Decom's lenient has().
    Applied: ['False', 'ConfigMapPending', 'Pending'],
    Available: ['False', 'ConfigMapPending', 'ConfigMap pending'],
    Finalized: ['True', 'CleanupConfirmed', 'All managed resources deleted and verified'],
    Health: ['True', 'NoErrors', 'Adapter is healthy'],
    deleteWhen: { clusterNamespace: true, clusterConfigMap: true, clusterJob: true },
  },
  'executor failed (nothing discovered)': {
    vars: { is_deleting: true, deleted_time: DELETED_TIME, generation: 2, adapter: failed, resources: {} },
    Applied: ['False', 'ConfigMapPending', 'Pending'],
    Available: ['False', 'ConfigMapPending', 'ConfigMap pending'],
    // The health guard: absent keys must not read as "deleted" when the executor failed.
    Finalized: ['False', '', ''],
    Health: ['False', 'ResourceFailed', 'discover clusterJob: connection refused'],
    deleteWhen: { clusterNamespace: true, clusterConfigMap: true, clusterJob: true },
  },
} as const;

function evaluateCondition(type: string, vars: Record<string, unknown>): string[] {
  const compiled = conditionExpressions.get(type)!;
  return [compiled.status, compiled.reason, compiled.message].map((c: CompiledCel) => c.evaluate(vars) as string);
}

describe('seed 000 example task config', () => {
  it('has the expressions this spec evaluates', () => {
    expect([...conditionExpressions.keys()]).toEqual(['Applied', 'Available', 'Finalized', 'Health']);
    expect([...deleteWhen.keys()]).toEqual(['clusterNamespace', 'clusterConfigMap', 'clusterJob']);
  });

  describe.each(Object.entries(states))('%s', (_state, expected) => {
    it.each(['Applied', 'Available', 'Finalized', 'Health'] as const)('%s status, reason, message', (type) => {
      expect(evaluateCondition(type, expected.vars)).toEqual(expected[type]);
    });

    it.each(['clusterNamespace', 'clusterConfigMap', 'clusterJob'] as const)('%s lifecycle.delete.when', (name) => {
      expect(deleteWhen.get(name)!.evaluate(expected.vars)).toBe(expected.deleteWhen[name]);
    });

    it('observed_generation is the current generation, as an integer', () => {
      expect(observedGeneration.evaluate(expected.vars)).toBe(expected.vars.generation);
    });
  });

  describe('is_deleting capture: has(clusterStatus.deleted_time)', () => {
    it.each([
      ['deleted_time absent', { id: 'c1', generation: 1 }, false],
      ['deleted_time set', { id: 'c1', generation: 2, deleted_time: DELETED_TIME }, true],
    ])('%s', (_case, clusterStatus, isDeleting) => {
      // Capture context: the response's top-level keys are variables, the whole response is `clusterStatus`.
      expect(isDeletingCapture.evaluate({ ...clusterStatus, clusterStatus })).toBe(isDeleting);
    });
  });

  it('lifecycle.delete.when needs deleted_time bound: the executor binds null when the API omits it', () => {
    const when = deleteWhen.get('clusterJob')!;
    expect(when.evaluate({ deleted_time: null, resources: {} })).toBe(false);
    expect(() => when.evaluate({ resources: {} })).toThrow(CelEvalError);
  });
});
