/**
 * What kube-apiserver does to a built-in kind's body beyond its schema: conversion (Secret
 * `stringData`), defaulting, the semantic validation of `pkg/apis/<group>/validation/validation.go`
 * and the update (immutability) rules — for the kinds Decom's adapters and tests use.
 * Paths in comments are in kubernetes/kubernetes unless they name a staging repository.
 * Custom resources get none of this (their CRDs define it).
 */
import { jsonEqual } from './json-equal.js';
import type { KindDef } from './kinds.js';
import type { KubeObject } from './object-store.js';
import type { FieldError } from './status-errors.js';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function objectAt(parent: Json, key: string): Json {
  if (!isObject(parent[key])) parent[key] = {};
  return parent[key] as Json;
}

function setDefault(target: Json, key: string, value: unknown): void {
  if (target[key] === undefined || target[key] === null) target[key] = value;
}

const kindKey = (def: KindDef) => `${def.apiVersion}/${def.kind}`;

/** Limits from pkg/apis/core/validation/validation.go (MaxSecretSize, ConfigMap's same 1 MiB). */
export const MAX_DATA_BYTES = 1024 * 1024;
/** staging/src/k8s.io/apimachinery/pkg/api/validation/objectmeta.go TotalAnnotationSizeLimitB. */
export const MAX_ANNOTATION_BYTES = 256 * 1024;

/**
 * Secret `stringData` is write-only: merged over `data` as base64 and dropped
 * (pkg/apis/core/v1/conversion.go Convert_v1_Secret_To_core_Secret).
 */
function convertSecret(object: Json): void {
  const stringData = object.stringData;
  delete object.stringData;
  if (!isObject(stringData)) return;
  const data = objectAt(object, 'data');
  for (const [key, value] of Object.entries(stringData)) {
    if (typeof value === 'string') data[key] = Buffer.from(value, 'utf8').toString('base64');
  }
}

/** Conversion to the internal version: the part of decoding that rewrites fields. Runs after pruning. */
export function convertIncoming(def: KindDef, object: KubeObject): void {
  if (!def.builtIn) return;
  if (kindKey(def) === 'v1/Secret') convertSecret(object);
}

/** pkg/apis/core/v1/defaults.go SetDefaults_Container. */
function defaultContainer(container: unknown): void {
  if (!isObject(container)) return;
  setDefault(container, 'terminationMessagePath', '/dev/termination-log');
  setDefault(container, 'terminationMessagePolicy', 'File');
  if (typeof container.image === 'string') {
    const tag = container.image.includes('@') ? 'digest' : /:[^/]+$/.exec(container.image)?.[0];
    setDefault(container, 'imagePullPolicy', tag === undefined || tag === ':latest' ? 'Always' : 'IfNotPresent');
  }
  if (Array.isArray(container.ports)) for (const port of container.ports) if (isObject(port)) setDefault(port, 'protocol', 'TCP');
}

/**
 * pkg/apis/core/v1/defaults.go SetDefaults_PodSpec. `restartPolicy` is left alone for Job
 * templates, where batch validation requires OnFailure or Never to be set explicitly.
 */
function defaultPodSpec(spec: unknown, restartPolicy: string | undefined): void {
  if (!isObject(spec)) return;
  setDefault(spec, 'dnsPolicy', 'ClusterFirst');
  if (restartPolicy) setDefault(spec, 'restartPolicy', restartPolicy);
  setDefault(spec, 'terminationGracePeriodSeconds', 30);
  setDefault(spec, 'schedulerName', 'default-scheduler');
  setDefault(spec, 'securityContext', {});
  for (const list of ['containers', 'initContainers']) if (Array.isArray(spec[list])) (spec[list] as unknown[]).forEach(defaultContainer);
}

function templateSpec(spec: Json): Json | undefined {
  const template = spec.template;
  return isObject(template) && isObject(template.spec) ? template.spec : undefined;
}

/** Labels and selector a Job gets at creation (pkg/registry/batch/job/strategy.go generateSelector). */
function generateJobSelector(object: KubeObject): void {
  const spec = object.spec as Json | undefined;
  if (!isObject(spec) || spec.manualSelector === true || !isObject(spec.template)) return;
  const uid = object.metadata.uid ?? '';
  const name = object.metadata.name;
  const templateMeta = objectAt(spec.template, 'metadata');
  templateMeta.labels = {
    ...(isObject(templateMeta.labels) ? templateMeta.labels : {}),
    'batch.kubernetes.io/controller-uid': uid,
    'batch.kubernetes.io/job-name': name,
    'controller-uid': uid,
    'job-name': name,
  };
  if (spec.selector === undefined || spec.selector === null) spec.selector = { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } };
}

/**
 * Fills the defaults the API server adds, in place (pkg/apis/<group>/v1/defaults.go), for fields
 * the product or a CEL expression may read. `creating` adds what only creation sets (a Job's
 * generated selector and template labels).
 */
export function applyDefaults(def: KindDef, object: KubeObject, creating: boolean): void {
  if (!def.builtIn) return;
  const spec = isObject(object.spec) ? object.spec : undefined;
  switch (kindKey(def)) {
    case 'v1/Secret':
      setDefault(object, 'type', 'Opaque');
      break;
    case 'v1/Pod':
      defaultPodSpec(spec, 'Always');
      break;
    case 'v1/Service':
      // pkg/apis/core/v1/defaults.go SetDefaults_Service.
      if (spec) {
        setDefault(spec, 'type', 'ClusterIP');
        setDefault(spec, 'sessionAffinity', 'None');
        if (Array.isArray(spec.ports)) {
          for (const port of spec.ports) {
            if (!isObject(port)) continue;
            setDefault(port, 'protocol', 'TCP');
            setDefault(port, 'targetPort', port.port);
          }
        }
      }
      break;
    case 'apps/v1/Deployment':
      // pkg/apis/apps/v1/defaults.go SetDefaults_Deployment.
      if (spec) {
        setDefault(spec, 'replicas', 1);
        setDefault(spec, 'strategy', { type: 'RollingUpdate' });
        const strategy = spec.strategy as Json;
        if (strategy.type === 'RollingUpdate' || strategy.type === undefined) {
          setDefault(strategy, 'type', 'RollingUpdate');
          const rolling = objectAt(strategy, 'rollingUpdate');
          setDefault(rolling, 'maxUnavailable', '25%');
          setDefault(rolling, 'maxSurge', '25%');
        }
        setDefault(spec, 'revisionHistoryLimit', 10);
        setDefault(spec, 'progressDeadlineSeconds', 600);
        defaultPodSpec(templateSpec(spec), 'Always');
      }
      break;
    case 'apps/v1/ReplicaSet':
      if (spec) {
        setDefault(spec, 'replicas', 1);
        defaultPodSpec(templateSpec(spec), 'Always');
      }
      break;
    case 'batch/v1/Job':
      // pkg/apis/batch/v1/defaults.go SetDefaults_Job.
      if (spec) {
        if (
          (spec.completions === undefined || spec.completions === null) &&
          (spec.parallelism === undefined || spec.parallelism === null)
        ) {
          spec.completions = 1;
          spec.parallelism = 1;
        }
        setDefault(spec, 'parallelism', 1);
        setDefault(spec, 'backoffLimit', 6);
        setDefault(spec, 'completionMode', 'NonIndexed');
        setDefault(spec, 'suspend', false);
        if (spec.podFailurePolicy === undefined) setDefault(spec, 'podReplacementPolicy', 'TerminatingOrFailed');
        defaultPodSpec(templateSpec(spec), undefined);
        if (creating) generateJobSelector(object);
      }
      break;
  }
}

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const CONFIG_KEY = /^[-._a-zA-Z0-9]+$/;

const required = (field: string, detail?: string): FieldError => ({
  reason: 'FieldValueRequired',
  field,
  message: detail ? `Required value: ${detail}` : 'Required value',
});
const unsupported = (field: string, value: unknown, supported: readonly string[]): FieldError => ({
  reason: 'FieldValueNotSupported',
  field,
  message: `Unsupported value: ${JSON.stringify(value)}: supported values: ${supported.map((s) => `"${s}"`).join(', ')}`,
});
const invalidValue = (field: string, value: unknown, why: string): FieldError => ({
  reason: 'FieldValueInvalid',
  field,
  message: `Invalid value: ${JSON.stringify(value)}: ${why}`,
});
const tooLong = (field: string, max: number): FieldError => ({
  reason: 'FieldValueTooLong',
  field,
  message: `Too long: must have at most ${max} bytes`,
});
const immutable = (field: string, value: unknown): FieldError => invalidValue(field, value, 'field is immutable');

function nonNegative(spec: Json, key: string, field: string, out: FieldError[]): void {
  const value = spec[key];
  if (typeof value === 'number' && value < 0) out.push(invalidValue(`${field}.${key}`, value, 'must be greater than or equal to 0'));
}

/** pkg/apis/core/validation/validation.go validateContainers (names, uniqueness, image). */
function validateContainers(containers: unknown, field: string, out: FieldError[]): void {
  if (!Array.isArray(containers) || containers.length === 0) {
    out.push(required(field));
    return;
  }
  const seen = new Set<string>();
  containers.forEach((container: unknown, i) => {
    const at = `${field}[${i}]`;
    if (!isObject(container)) return;
    const name = container.name;
    if (typeof name !== 'string' || name === '') out.push(required(`${at}.name`));
    else if (name.length > 63 || !DNS1123_LABEL.test(name))
      out.push(
        invalidValue(
          `${at}.name`,
          name,
          "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
        ),
      );
    else if (seen.has(name))
      out.push({ reason: 'FieldValueDuplicate', field: `${at}.name`, message: `Duplicate value: ${JSON.stringify(name)}` });
    if (typeof name === 'string') seen.add(name);
    if (typeof container.image !== 'string' || container.image.trim() === '') out.push(required(`${at}.image`));
  });
}

function validatePodSpec(spec: unknown, field: string, restartPolicies: readonly string[], out: FieldError[]): void {
  if (!isObject(spec)) {
    out.push(required(`${field}.containers`));
    return;
  }
  validateContainers(spec.containers, `${field}.containers`, out);
  const policy = spec.restartPolicy;
  if (policy === undefined || policy === '') {
    out.push(required(`${field}.restartPolicy`, `valid values: ${restartPolicies.map((p) => `"${p}"`).join(', ')}`));
  } else if (!restartPolicies.includes(policy as string)) {
    out.push(unsupported(`${field}.restartPolicy`, policy, restartPolicies));
  }
}

function labelsMatch(selector: unknown, labels: unknown): boolean {
  if (!isObject(selector)) return false;
  const have = isObject(labels) ? labels : {};
  const matchLabels = isObject(selector.matchLabels) ? selector.matchLabels : {};
  if (!Object.entries(matchLabels).every(([k, v]) => have[k] === v)) return false;
  const expressions = Array.isArray(selector.matchExpressions) ? (selector.matchExpressions as Json[]) : [];
  return expressions.every((e) => {
    const values = Array.isArray(e.values) ? (e.values as string[]) : [];
    const value = have[e.key as string] as string | undefined;
    switch (e.operator) {
      case 'In':
        return value !== undefined && values.includes(value);
      case 'NotIn':
        return value === undefined || !values.includes(value);
      case 'Exists':
        return value !== undefined;
      case 'DoesNotExist':
        return value === undefined;
      default:
        return false;
    }
  });
}

function isEmptySelector(selector: unknown): boolean {
  if (!isObject(selector)) return true;
  const labels = isObject(selector.matchLabels) ? Object.keys(selector.matchLabels).length : 0;
  const expressions = Array.isArray(selector.matchExpressions) ? selector.matchExpressions.length : 0;
  return labels + expressions === 0;
}

/** Keys and total size of ConfigMap/Secret data (validation.go ValidateConfigMap / ValidateSecret). */
function validateDataMaps(
  object: Json,
  maps: readonly string[],
  decode: (map: string, value: string) => number,
  out: FieldError[],
): number {
  let total = 0;
  const keys = new Set<string>();
  for (const map of maps) {
    const data = object[map];
    if (!isObject(data)) continue;
    for (const [key, value] of Object.entries(data)) {
      if (key.length > 253 || !CONFIG_KEY.test(key)) {
        out.push(
          invalidValue(
            `${map}[${key}]`,
            key,
            "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
          ),
        );
      }
      if (keys.has(key))
        out.push({ reason: 'FieldValueDuplicate', field: `${map}[${key}]`, message: `Duplicate value: ${JSON.stringify(key)}` });
      keys.add(key);
      if (typeof value === 'string') total += key.length + decode(map, value);
    }
  }
  return total;
}

/** The decoded size of a base64 string (what a Secret stores). */
const base64Bytes = (value: string) => Buffer.from(value, 'base64').length;

/**
 * The semantic validation kube-apiserver adds to the schema for a body about to be stored
 * (after conversion and defaulting); `[]` = valid. Object metadata is checked separately.
 */
export function validateKind(def: KindDef, object: KubeObject): FieldError[] {
  const out: FieldError[] = [];
  const annotations = object.metadata.annotations;
  if (isObject(annotations)) {
    // staging/src/k8s.io/apimachinery/pkg/api/validation/objectmeta.go ValidateAnnotationsSize.
    const size = Object.entries(annotations).reduce((n, [k, v]) => n + k.length + (typeof v === 'string' ? v.length : 0), 0);
    if (size > MAX_ANNOTATION_BYTES) out.push(tooLong('metadata.annotations', MAX_ANNOTATION_BYTES));
  }
  if (!def.builtIn) return out;
  const spec = isObject(object.spec) ? object.spec : undefined;
  switch (kindKey(def)) {
    case 'v1/ConfigMap': {
      // pkg/apis/core/validation/validation.go ValidateConfigMap.
      const size = validateDataMaps(
        object,
        ['data', 'binaryData'],
        (map, value) => (map === 'binaryData' ? base64Bytes(value) : Buffer.byteLength(value)),
        out,
      );
      if (size > MAX_DATA_BYTES) out.push(tooLong('[]', MAX_DATA_BYTES));
      break;
    }
    case 'v1/Secret': {
      // pkg/apis/core/validation/validation.go ValidateSecret.
      const size = validateDataMaps(object, ['data'], (_map, value) => base64Bytes(value), out);
      if (size > MAX_DATA_BYTES) out.push(tooLong('data', MAX_DATA_BYTES));
      const data = isObject(object.data) ? object.data : {};
      const needs: Readonly<Record<string, readonly string[]>> = {
        'kubernetes.io/dockerconfigjson': ['.dockerconfigjson'],
        'kubernetes.io/dockercfg': ['.dockercfg'],
        'kubernetes.io/tls': ['tls.crt', 'tls.key'],
      };
      for (const key of needs[object.type as string] ?? []) if (data[key] === undefined) out.push(required(`data[${key}]`));
      if (
        object.type === 'kubernetes.io/service-account-token' &&
        !(isObject(annotations) && annotations['kubernetes.io/service-account.name'])
      ) {
        out.push(required('metadata.annotations[kubernetes.io/service-account.name]'));
      }
      break;
    }
    case 'v1/Pod':
      validatePodSpec(spec, 'spec', ['Always', 'OnFailure', 'Never'], out);
      break;
    case 'v1/Service': {
      // pkg/apis/core/validation/validation.go ValidateService.
      if (!spec) break;
      const ports = Array.isArray(spec.ports) ? (spec.ports as Json[]) : [];
      if (ports.length === 0 && spec.type !== 'ExternalName' && spec.clusterIP !== 'None') out.push(required('spec.ports'));
      ports.forEach((port, i) => {
        if (typeof port.port === 'number' && (port.port < 1 || port.port > 65535))
          out.push(invalidValue(`spec.ports[${i}].port`, port.port, 'must be between 1 and 65535, inclusive'));
        if (ports.length > 1 && (typeof port.name !== 'string' || port.name === '')) out.push(required(`spec.ports[${i}].name`));
      });
      const types = ['ClusterIP', 'NodePort', 'LoadBalancer', 'ExternalName'];
      if (spec.type !== undefined && !types.includes(spec.type as string)) out.push(unsupported('spec.type', spec.type, types));
      break;
    }
    case 'apps/v1/Deployment':
    case 'apps/v1/ReplicaSet': {
      // pkg/apis/apps/validation/validation.go ValidateDeploymentSpec / ValidateReplicaSetSpec.
      // A missing spec is validated as the empty struct Go decodes it into.
      const workload = spec ?? {};
      nonNegative(workload, 'replicas', 'spec', out);
      if (workload.selector === undefined || workload.selector === null) {
        out.push(required('spec.selector'));
      } else if (isEmptySelector(workload.selector)) {
        out.push(
          invalidValue(
            'spec.selector',
            workload.selector,
            `empty selector is invalid for ${def.kind === 'Deployment' ? 'deployment' : 'replicaset'}`,
          ),
        );
      }
      const labels = isObject(workload.template) && isObject(workload.template.metadata) ? workload.template.metadata.labels : undefined;
      if (workload.selector === undefined || workload.selector === null || !labelsMatch(workload.selector, labels)) {
        out.push(invalidValue('spec.template.metadata.labels', labels ?? {}, '`selector` does not match template `labels`'));
      }
      validatePodSpec(templateSpec(workload), 'spec.template.spec', ['Always'], out);
      break;
    }
    case 'batch/v1/Job': {
      // pkg/apis/batch/validation/validation.go validateJobSpec.
      if (!spec || !isObject(spec.template)) {
        out.push(
          required('spec.template.spec.containers'),
          required('spec.template.spec.restartPolicy', 'valid values: "OnFailure", "Never"'),
        );
        break;
      }
      for (const key of ['parallelism', 'completions', 'activeDeadlineSeconds', 'backoffLimit', 'ttlSecondsAfterFinished'])
        nonNegative(spec, key, 'spec', out);
      validatePodSpec(templateSpec(spec), 'spec.template.spec', ['OnFailure', 'Never'], out);
      if (spec.selector !== undefined && spec.manualSelector !== true && isObject(spec.template)) {
        const labels = isObject(spec.template.metadata) ? spec.template.metadata.labels : undefined;
        if (!labelsMatch(spec.selector, labels))
          out.push(invalidValue('spec.template.metadata.labels', labels ?? {}, '`selector` does not match template `labels`'));
      }
      break;
    }
    case 'rbac.authorization.k8s.io/v1/Role':
    case 'rbac.authorization.k8s.io/v1/ClusterRole': {
      // pkg/apis/rbac/validation/validation.go ValidatePolicyRule.
      const rules = Array.isArray(object.rules) ? (object.rules as Json[]) : [];
      rules.forEach((rule, i) => {
        if (!Array.isArray(rule.verbs) || rule.verbs.length === 0)
          out.push(required(`rules[${i}].verbs`, 'verbs must contain at least one value'));
        const hasUrls = Array.isArray(rule.nonResourceURLs) && rule.nonResourceURLs.length > 0;
        if (!hasUrls && def.kind === 'Role' && (!Array.isArray(rule.apiGroups) || rule.apiGroups.length === 0)) {
          out.push(required(`rules[${i}].apiGroups`, 'resource rules must supply at least one api group'));
        }
      });
      break;
    }
    case 'rbac.authorization.k8s.io/v1/RoleBinding': {
      // pkg/apis/rbac/validation/validation.go ValidateRoleBinding.
      const roleRef = isObject(object.roleRef) ? object.roleRef : {};
      if (roleRef.kind !== undefined && !['Role', 'ClusterRole'].includes(roleRef.kind as string))
        out.push(unsupported('roleRef.kind', roleRef.kind, ['Role', 'ClusterRole']));
      if (roleRef.apiGroup !== undefined && roleRef.apiGroup !== 'rbac.authorization.k8s.io')
        out.push(unsupported('roleRef.apiGroup', roleRef.apiGroup, ['rbac.authorization.k8s.io']));
      const subjects = Array.isArray(object.subjects) ? (object.subjects as Json[]) : [];
      subjects.forEach((subject, i) => {
        const kinds = ['ServiceAccount', 'User', 'Group'];
        if (!kinds.includes(subject.kind as string)) out.push(unsupported(`subjects[${i}].kind`, subject.kind, kinds));
      });
      break;
    }
  }
  return out;
}

/** Deep equality regardless of key order (clients serialize fields in their own order). */
const same = (a: unknown, b: unknown) => jsonEqual(a ?? null, b ?? null);

/** The fields of a Pod spec a running Pod may change (validation.go ValidatePodUpdate). */
function podSpecWithoutMutable(spec: unknown): unknown {
  if (!isObject(spec)) return spec;
  const copy = structuredClone(spec);
  delete copy.activeDeadlineSeconds;
  delete copy.tolerations;
  for (const list of ['containers', 'initContainers'])
    if (Array.isArray(copy[list])) for (const c of copy[list] as Json[]) if (isObject(c)) delete c.image;
  return copy;
}

function dataImmutability(old: KubeObject, next: KubeObject, maps: readonly string[], out: FieldError[]): void {
  if (old.immutable !== true) return;
  // validation.go ValidateConfigMapUpdate / ValidateSecretUpdate.
  if (next.immutable !== true)
    out.push({ reason: 'FieldValueForbidden', field: 'immutable', message: 'Forbidden: field is immutable when `immutable` is set' });
  for (const map of maps)
    if (!same(old[map], next[map]))
      out.push({ reason: 'FieldValueForbidden', field: map, message: 'Forbidden: field is immutable when `immutable` is set' });
}

/** The update rules of a built-in kind (what may not change once stored); `[]` = allowed. */
export function validateKindUpdate(def: KindDef, old: KubeObject, next: KubeObject): FieldError[] {
  if (!def.builtIn) return [];
  const out: FieldError[] = [];
  const oldSpec = isObject(old.spec) ? old.spec : {};
  const nextSpec = isObject(next.spec) ? next.spec : {};
  switch (kindKey(def)) {
    case 'v1/ConfigMap':
      dataImmutability(old, next, ['data', 'binaryData'], out);
      break;
    case 'v1/Secret':
      if (!same(old.type, next.type)) out.push(immutable('type', next.type));
      dataImmutability(old, next, ['data'], out);
      break;
    case 'v1/Pod':
      if (!same(podSpecWithoutMutable(oldSpec), podSpecWithoutMutable(nextSpec))) {
        out.push({
          reason: 'FieldValueForbidden',
          field: 'spec',
          message:
            'Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
        });
      }
      break;
    case 'apps/v1/Deployment':
    case 'apps/v1/ReplicaSet':
      // pkg/apis/apps/validation/validation.go ValidateDeploymentUpdate (apps/v1 selectors are immutable).
      if (!same(oldSpec.selector, nextSpec.selector)) out.push(immutable('spec.selector', nextSpec.selector));
      break;
    case 'batch/v1/Job':
      // pkg/apis/batch/validation/validation.go validateJobSpecUpdate.
      if (!same(oldSpec.selector, nextSpec.selector)) out.push(immutable('spec.selector', nextSpec.selector));
      if (!same(oldSpec.template, nextSpec.template)) out.push(immutable('spec.template', nextSpec.template));
      if (!same(oldSpec.completionMode, nextSpec.completionMode)) out.push(immutable('spec.completionMode', nextSpec.completionMode));
      if (oldSpec.completionMode !== 'Indexed' && !same(oldSpec.completions, nextSpec.completions))
        out.push(immutable('spec.completions', nextSpec.completions));
      break;
    case 'rbac.authorization.k8s.io/v1/RoleBinding':
      // pkg/apis/rbac/validation/validation.go ValidateRoleBindingUpdate.
      if (!same(old.roleRef, next.roleRef)) out.push(invalidValue('roleRef', next.roleRef, 'cannot change roleRef'));
      break;
  }
  return out;
}
