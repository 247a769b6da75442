/**
 * Object-metadata validation, the subset of apimachinery's `ValidateObjectMeta` clients trip over:
 * name formats per kind, label keys/values, finalizer names, owner references.
 * Returns field errors; the caller turns them into a 422 `Invalid` status.
 */
import type { KindDef } from './kinds.js';
import { isValidLabelKey, isValidLabelValue } from './label-selector.js';
import type { KubeObject } from './object-store.js';
import type { FieldError } from './status-errors.js';

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

type NameRule = 'label' | 'label1035' | 'path' | 'subdomain';

/** Namespaces are DNS labels, Services DNS-1035 labels, RBAC objects path segments, the rest DNS subdomains. */
function nameRuleOf(def: KindDef): NameRule {
  if (def.builtIn && def.kind === 'Namespace') return 'label';
  if (def.builtIn && def.kind === 'Service') return 'label1035';
  if (def.group === 'rbac.authorization.k8s.io') return 'path';
  return 'subdomain';
}

function nameError(rule: NameRule, name: string): string | undefined {
  const invalid = `Invalid value: "${name}": `;
  switch (rule) {
    case 'label':
      if (name.length > 63) return `${invalid}must be no more than 63 characters`;
      return DNS1123_LABEL.test(name)
        ? undefined
        : `${invalid}a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`;
    case 'label1035':
      if (name.length > 63) return `${invalid}must be no more than 63 characters`;
      return DNS1035_LABEL.test(name)
        ? undefined
        : `${invalid}a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`;
    case 'path':
      return name === '.' || name === '..' || /[/%]/.test(name)
        ? `${invalid}may not contain '/' or '%' and may not be '.' or '..'`
        : undefined;
    case 'subdomain':
      if (name.length > 253) return `${invalid}must be no more than 253 characters`;
      return DNS1123_SUBDOMAIN.test(name)
        ? undefined
        : `${invalid}a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`;
  }
}

function validateStringMap(field: string, value: unknown, checkValues: boolean): FieldError[] {
  if (value === undefined || value === null) return [];
  if (typeof value !== 'object' || Array.isArray(value)) {
    return [{ reason: 'FieldValueInvalid', field, message: 'Invalid value: must be a map of strings' }];
  }
  const errors: FieldError[] = [];
  for (const [key, v] of Object.entries(value)) {
    if (!isValidLabelKey(key)) {
      errors.push({
        reason: 'FieldValueInvalid',
        field,
        message: `Invalid value: "${key}": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character`,
      });
    } else if (typeof v !== 'string') {
      errors.push({ reason: 'FieldValueInvalid', field: `${field}.${key}`, message: 'Invalid value: must be a string' });
    } else if (checkValues && !isValidLabelValue(v)) {
      errors.push({
        reason: 'FieldValueInvalid',
        field,
        message: `Invalid value: "${v}": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character`,
      });
    }
  }
  return errors;
}

function validateOwnerReferences(value: unknown): FieldError[] {
  if (value === undefined || value === null) return [];
  const field = 'metadata.ownerReferences';
  if (!Array.isArray(value)) return [{ reason: 'FieldValueInvalid', field, message: 'Invalid value: must be a list' }];
  const errors: FieldError[] = [];
  value.forEach((ref: Record<string, unknown>, i) => {
    for (const key of ['apiVersion', 'kind', 'name', 'uid']) {
      if (typeof ref?.[key] !== 'string' || ref[key] === '') {
        errors.push({
          reason: 'FieldValueInvalid',
          field: `${field}[${i}].${key}`,
          message: `Invalid value: "": ${key} must not be empty`,
        });
      }
    }
  });
  if (value.filter((r: Record<string, unknown>) => r?.controller === true).length > 1) {
    errors.push({ reason: 'FieldValueInvalid', field, message: 'Invalid value: "": Only one reference can have Controller set to true' });
  }
  return errors;
}

/** Validates what a create or update stores; `[]` when valid. */
export function validateObjectMeta(def: KindDef, object: KubeObject): FieldError[] {
  const meta = object.metadata;
  const errors: FieldError[] = [];
  const rule = nameRuleOf(def);
  if (!meta.name) {
    errors.push({ reason: 'FieldValueRequired', field: 'metadata.name', message: 'Required value: name or generateName is required' });
  } else {
    const problem = nameError(rule, meta.name);
    if (problem) errors.push({ reason: 'FieldValueInvalid', field: 'metadata.name', message: problem });
  }
  errors.push(...validateStringMap('metadata.labels', meta.labels, true));
  errors.push(...validateStringMap('metadata.annotations', meta.annotations, false));
  if (meta.finalizers !== undefined && meta.finalizers !== null) {
    if (!Array.isArray(meta.finalizers)) {
      errors.push({ reason: 'FieldValueInvalid', field: 'metadata.finalizers', message: 'Invalid value: must be a list of strings' });
    } else {
      meta.finalizers.forEach((f, i) => {
        if (typeof f !== 'string' || !isValidLabelKey(f)) {
          errors.push({
            reason: 'FieldValueInvalid',
            field: `metadata.finalizers[${i}]`,
            message: `Invalid value: "${String(f)}": name part must consist of alphanumeric characters, '-', '_' or '.'`,
          });
        }
      });
    }
  }
  errors.push(...validateOwnerReferences(meta.ownerReferences));
  return errors;
}
