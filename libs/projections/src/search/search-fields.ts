/**
 * Which fields a list's `search` may name, and what each is in the read model
 * (HyperFleet: hyperfleet-api docs/search.md):
 * plain columns, `labels.<key>` (a JSON map of strings), `<prefix>.<path>` into a JSON document
 * (`spec.`, `data.`) and `<prefix>.<Type>[.<subfield>]` over a JSON condition list.
 */
import { SearchFieldError } from './search-errors.js';

export type ColumnType = 'text' | 'integer' | 'time';

export interface SearchSchema {
  /** Table the list reads (qualifies JSON columns inside sub-selects). */
  readonly table: string;
  readonly columns: Readonly<Record<string, { readonly column: string; readonly type: ColumnType }>>;
  /**
   * `table`, when given: a `(resource_id, key, value)` table mirroring the JSON column, one row per label,
   * indexed by (key, value): label predicates become an indexed `EXISTS` probe of it instead of a JSON
   * parse of every row. Same results: a missing key matches nothing, as a JSON null does.
   */
  readonly labels?: { readonly prefix: string; readonly column: string; readonly table?: string };
  readonly documents?: readonly { readonly prefix: string; readonly column: string }[];
  readonly conditions?: { readonly prefix: string; readonly column: string };
}

/** Condition subfields that `status.conditions.<Type>.<subfield>` compares (HyperFleet's three, plus created_time). */
export const CONDITION_SUBFIELDS: Readonly<Record<string, 'time' | 'integer'>> = {
  last_updated_time: 'time',
  last_transition_time: 'time',
  created_time: 'time',
  observed_generation: 'integer',
};

export type ResolvedField =
  | { readonly kind: 'column'; readonly name: string; readonly column: string; readonly type: ColumnType }
  | { readonly kind: 'label'; readonly name: string; readonly column: string; readonly key: string; readonly table?: string }
  | { readonly kind: 'document'; readonly name: string; readonly column: string; readonly path: readonly string[] }
  | {
      readonly kind: 'condition';
      readonly name: string;
      readonly column: string;
      readonly type: string;
      readonly subfield?: { readonly name: string; readonly type: 'time' | 'integer' };
    };

/** The resource lists (`GET /{plural}`, children, `/resources`). */
export const RESOURCE_SEARCH: SearchSchema = {
  table: 'resources',
  columns: {
    id: { column: 'id', type: 'text' },
    name: { column: 'name', type: 'text' },
    kind: { column: 'kind', type: 'text' },
    href: { column: 'href', type: 'text' },
    owner_id: { column: 'owner_id', type: 'text' },
    owner_kind: { column: 'owner_kind', type: 'text' },
    owner_href: { column: 'owner_href', type: 'text' },
    created_by: { column: 'created_by', type: 'text' },
    updated_by: { column: 'updated_by', type: 'text' },
    deleted_by: { column: 'deleted_by', type: 'text' },
    generation: { column: 'generation', type: 'integer' },
    created_time: { column: 'created_time', type: 'time' },
    updated_time: { column: 'updated_time', type: 'time' },
    deleted_time: { column: 'deleted_time', type: 'time' },
  },
  labels: { prefix: 'labels.', column: 'labels', table: 'resource_labels' },
  documents: [{ prefix: 'spec.', column: 'spec' }],
  conditions: { prefix: 'status.conditions.', column: 'conditions' },
};

/** The adapter-status lists (`GET /{plural}/{id}/statuses`): fields of an AdapterStatus. */
export const STATUS_SEARCH: SearchSchema = {
  table: 'adapter_statuses',
  columns: {
    adapter: { column: 'adapter', type: 'text' },
    observed_generation: { column: 'observed_generation', type: 'integer' },
    created_time: { column: 'created_time', type: 'time' },
    last_report_time: { column: 'last_report_time', type: 'time' },
  },
  documents: [
    { prefix: 'data.', column: 'data' },
    { prefix: 'metadata.', column: 'metadata' },
  ],
  conditions: { prefix: 'conditions.', column: 'conditions' },
};

const LABEL_KEY = /^[A-Za-z0-9]([A-Za-z0-9_.\-/]*[A-Za-z0-9])?$/;
/** HyperFleet's key pattern for JSON document paths (`spec.<a>.<b>`): lower case, digits, underscore. */
const PATH_SEGMENT = /^[a-z0-9_]+$/;
const CONDITION_TYPE = /^[A-Z][A-Za-z0-9]*$/;

/**
 * Resolves a field name against a list's schema.
 * @throws SearchFieldError for an unknown field or a malformed key/path/condition type (→ HYPERFLEET-VAL-005).
 */
export function resolveField(schema: SearchSchema, name: string, search: string): ResolvedField {
  const column = Object.hasOwn(schema.columns, name) ? schema.columns[name] : undefined;
  if (column) return { kind: 'column', name, column: column.column, type: column.type };
  const fail = (why: string): never => {
    throw new SearchFieldError(`search field "${name}" ${why}`, name, search);
  };
  if (schema.labels && name.startsWith(schema.labels.prefix)) {
    const key = name.slice(schema.labels.prefix.length);
    if (!LABEL_KEY.test(key)) fail('is not a valid label key');
    return { kind: 'label', name, column: schema.labels.column, key, ...(schema.labels.table ? { table: schema.labels.table } : {}) };
  }
  for (const doc of schema.documents ?? []) {
    if (!name.startsWith(doc.prefix)) continue;
    const path = name.slice(doc.prefix.length).split('.');
    if (!path.every((s) => PATH_SEGMENT.test(s))) fail(`has an invalid path (segments are [a-z0-9_]+ separated by ".", as in HyperFleet)`);
    return { kind: 'document', name, column: doc.column, path };
  }
  if (schema.conditions && name.startsWith(schema.conditions.prefix)) {
    const [type = '', subfield, ...rest] = name.slice(schema.conditions.prefix.length).split('.');
    if (!CONDITION_TYPE.test(type)) fail('names no condition type (PascalCase, e.g. Reconciled)');
    if (rest.length > 0 || (subfield !== undefined && !Object.hasOwn(CONDITION_SUBFIELDS, subfield))) {
      fail(`has an unknown condition subfield (one of ${Object.keys(CONDITION_SUBFIELDS).join(', ')})`);
    }
    return {
      kind: 'condition',
      name,
      column: schema.conditions.column,
      type,
      ...(subfield !== undefined && { subfield: { name: subfield, type: CONDITION_SUBFIELDS[subfield]! } }),
    };
  }
  return fail(`is unknown; searchable fields: ${describeFields(schema)}`);
}

/** `id, name, ..., labels.<key>, spec.<path>, status.conditions.<Type>[.<subfield>]` */
export function describeFields(schema: SearchSchema): string {
  return [
    ...Object.keys(schema.columns),
    ...(schema.labels ? [`${schema.labels.prefix}<key>`] : []),
    ...(schema.documents ?? []).map((d) => `${d.prefix}<path>`),
    ...(schema.conditions ? [`${schema.conditions.prefix}<Type>[.<subfield>]`] : []),
  ].join(', ');
}
