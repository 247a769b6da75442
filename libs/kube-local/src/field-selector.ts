/**
 * Field selectors (the `fieldSelector` query parameter): `=`, `==` and `!=`, ANDed by commas, over
 * `metadata.name`, `metadata.namespace` and the further fields each built-in kind's registry strategy
 * makes selectable (`ToSelectableFields` / `GetAttrs` in kubernetes/kubernetes `pkg/registry/<group>/<kind>/strategy.go`).
 */
import type { KindDef } from './kinds.js';
import { SelectorSyntaxError } from './label-selector.js';

export interface FieldRequirement {
  /** A dotted field path, `metadata.name` or one of the kind's selectable fields. */
  readonly field: string;
  readonly equals: boolean;
  readonly value: string;
}

const EVENT_FIELDS = [
  'involvedObject.kind',
  'involvedObject.namespace',
  'involvedObject.name',
  'involvedObject.uid',
  'involvedObject.apiVersion',
  'involvedObject.resourceVersion',
  'involvedObject.fieldPath',
  'reason',
  'reportingComponent',
  'source',
  'type',
];

/** Selectable fields beyond `metadata.name`/`metadata.namespace`, per `<apiVersion>/<kind>` (strategy.go of each). */
const KIND_FIELDS: Readonly<Record<string, readonly string[]>> = {
  // pkg/registry/core/pod/strategy.go ToSelectableFields
  'v1/Pod': [
    'spec.nodeName',
    'spec.restartPolicy',
    'spec.schedulerName',
    'spec.serviceAccountName',
    'spec.hostNetwork',
    'status.phase',
    'status.podIP',
    'status.nominatedNodeName',
  ],
  // pkg/registry/core/namespace/strategy.go NamespaceToSelectableFields
  'v1/Namespace': ['status.phase'],
  // pkg/registry/core/secret/strategy.go SelectableFields
  'v1/Secret': ['type'],
  // pkg/registry/core/event/strategy.go ToSelectableFields
  'v1/Event': EVENT_FIELDS,
  // pkg/registry/batch/job/strategy.go JobToSelectableFields
  'batch/v1/Job': ['status.successful'],
  // pkg/registry/apps/replicaset/strategy.go ReplicaSetToSelectableFields
  'apps/v1/ReplicaSet': ['status.replicas'],
};

/** The fields a field selector may name for `def` (custom resources: name and namespace only). */
export function selectableFields(def: KindDef): readonly string[] {
  const extra = def.builtIn ? (KIND_FIELDS[`${def.apiVersion}/${def.kind}`] ?? []) : [];
  return ['metadata.name', 'metadata.namespace', ...extra];
}

/**
 * Parses a field selector; `''` selects everything.
 * @param selectable the fields allowed (default `metadata.name` and `metadata.namespace`)
 * @throws SelectorSyntaxError for bad syntax or another field (`field label not supported: spec.x`,
 *   as real servers word it).
 */
export function parseFieldSelector(
  text: string,
  selectable: readonly string[] = ['metadata.name', 'metadata.namespace'],
): FieldRequirement[] {
  if (text.trim() === '') return [];
  return text.split(',').map((part) => {
    const match = /^\s*([^=!\s]+)\s*(==|=|!=)\s*([^\s]*)\s*$/.exec(part);
    if (!match) throw new SelectorSyntaxError(`invalid selector: '${text}'; can't understand '${part}'`);
    const [, field, op, value] = match;
    if (!selectable.includes(field!)) throw new SelectorSyntaxError(`field label not supported: ${field}`);
    return { field: field!, equals: op !== '!=', value: value! };
  });
}

/** The selector value of a field: strings as they are, numbers and booleans printed, absent `''` (and `source` its component). */
function fieldValue(object: Readonly<Record<string, unknown>>, field: string): string {
  let current: unknown = object;
  for (const part of field.split('.')) {
    current = current !== null && typeof current === 'object' ? (current as Record<string, unknown>)[part] : undefined;
  }
  if (field === 'source' && current !== null && typeof current === 'object') current = (current as { component?: unknown }).component;
  if (field === 'metadata.namespace' && current === undefined) return '';
  return typeof current === 'string' || typeof current === 'number' || typeof current === 'boolean' ? String(current) : '';
}

/** True when the object satisfies every requirement. */
export function matchesFields(requirements: readonly FieldRequirement[], object: Readonly<Record<string, unknown>>): boolean {
  return requirements.every((r) => (fieldValue(object, r.field) === r.value) === r.equals);
}
