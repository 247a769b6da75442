import type { ConfigIssue } from './task-config-error.js';
import type { CompiledCel } from '@decom/cel';
import type { CompiledTemplate } from '@decom/go-template';

/**
 * Typed, load-time-validated AdapterTaskConfig (the flat HyperFleet DSL, HyperFleet-551).
 * Every CEL expression and Go template is compiled once at load; `where` is the config path
 * (`resources[2].lifecycle.delete.when.expression`) used in execution traces and errors.
 * @see HyperFleet: hyperfleet-adapter internal/configloader/types.go,
 *   seeds/000 "Adapter Framework Changes › DSL Changes".
 */
export interface TaskConfig {
  /** File name as given to the loader (used in error messages and traces). */
  readonly file: string;
  readonly params: readonly ParamSpec[];
  readonly preconditions: readonly PreconditionSpec[];
  readonly resources: readonly ResourceSpec[];
  readonly post: PostSpec;
  /** Load warnings (e.g. unknown CEL variables without `strict`), `file:line:column`-positioned. */
  readonly warnings?: readonly ConfigIssue[];
}

/** A CEL expression compiled at load time. */
export interface CelExpr {
  readonly source: string;
  readonly where: string;
  readonly compiled: CompiledCel;
}

/** A string that may contain a Go template; `compiled` is absent when it has no `{{`. */
export interface TemplateText {
  readonly source: string;
  readonly where: string;
  readonly compiled?: CompiledTemplate;
}

/** Target type of a param; `int64`/`float64` are accepted in YAML and normalised. */
export type ParamType = 'string' | 'int' | 'float' | 'bool';

export type ParamSource =
  | { readonly kind: 'event'; readonly path: readonly string[] }
  | { readonly kind: 'env'; readonly variable: string }
  | { readonly kind: 'config'; readonly path: readonly string[] }
  | { readonly kind: 'param'; readonly param: string; readonly path: readonly string[] }
  | { readonly kind: 'expression'; readonly expr: CelExpr }
  | { readonly kind: 'api_call'; readonly apiCall: ApiCallSpec }
  | { readonly kind: 'file'; readonly path: string; readonly trim: boolean };

export interface ParamSpec {
  readonly name: string;
  readonly source: ParamSource;
  /** Only set when the YAML names a type: conversion is never implicit. */
  readonly type?: ParamType;
  readonly required: boolean;
  /** `hasDefault` distinguishes `default: null` from no default. */
  readonly hasDefault: boolean;
  readonly default?: unknown;
  readonly description?: string;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type RetryBackoff = 'exponential' | 'linear' | 'constant';

export interface ApiCallSpec {
  readonly method: HttpMethod;
  readonly url: TemplateText;
  readonly timeoutMs?: number;
  readonly retryAttempts?: number;
  readonly retryBackoff?: RetryBackoff;
  readonly body?: TemplateText;
  readonly headers: readonly { readonly name: string; readonly value: TemplateText }[];
}

/** `field` is either a dot path (`status.phase`) or Kubernetes-style JSONPath (`{.items[0].name}`). */
export interface FieldPath {
  readonly source: string;
  readonly where: string;
  /** Dot-path segments; absent for JSONPath. */
  readonly segments?: readonly string[];
  /** jsonpath-plus expression (`$.items[0].name`); absent for dot paths. */
  readonly jsonPath?: string;
}

export interface CaptureSpec {
  readonly name: string;
  readonly field?: FieldPath;
  readonly expression?: CelExpr;
  readonly hasDefault: boolean;
  readonly default?: unknown;
}

export const CONDITION_OPERATORS = [
  'equals',
  'notEquals',
  'in',
  'notIn',
  'contains',
  'greaterThan',
  'greaterThanOrEqual',
  'lessThan',
  'lessThanOrEqual',
  'exists',
  'notExists',
] as const;
export type ConditionOperator = (typeof CONDITION_OPERATORS)[number];

export interface ConditionSpec {
  readonly field: FieldPath;
  readonly operator: ConditionOperator;
  /** From `value` or `values`; absent for exists/notExists. */
  readonly value?: unknown;
}

export type LogLevel = 'debug' | 'info' | 'warning' | 'error';

export interface LogSpec {
  readonly message: TemplateText;
  readonly level: LogLevel;
}

export interface PreconditionSpec {
  readonly name: string;
  readonly apiCall?: ApiCallSpec;
  readonly captures: readonly CaptureSpec[];
  readonly conditions: readonly ConditionSpec[];
  readonly expression?: CelExpr;
  readonly log?: LogSpec;
}

/**
 * A YAML tree whose strings are templates. In payload builds a map holding `expression` or
 * `field` (plus optional `default`) is a value definition evaluated to a typed value.
 */
export type TemplateTree =
  | { readonly kind: 'text'; readonly text: TemplateText }
  | { readonly kind: 'literal'; readonly value: number | boolean | null }
  | { readonly kind: 'list'; readonly items: readonly TemplateTree[] }
  | { readonly kind: 'map'; readonly entries: readonly { readonly key: TemplateText; readonly value: TemplateTree }[] }
  | { readonly kind: 'value'; readonly def: ValueDefinition };

export interface ValueDefinition {
  readonly where: string;
  readonly expression?: CelExpr;
  readonly field?: FieldPath;
  readonly hasDefault: boolean;
  readonly default?: unknown;
}

/** Inline map (values templated) or a whole-document Go template (block string or `{ref}` file). */
export type ManifestSpec =
  { readonly kind: 'tree'; readonly tree: TemplateTree } | { readonly kind: 'document'; readonly template: TemplateText };

export interface DiscoverySpec {
  /** Omitted or `"*"` = cluster-scoped / all namespaces. */
  readonly namespace?: TemplateText;
  readonly byName?: TemplateText;
  readonly bySelectors?: readonly { readonly key: TemplateText; readonly value: TemplateText }[];
}

export type PropagationPolicy = 'Background' | 'Foreground' | 'Orphan';

/**
 * `lifecycle.delete.policy` (Decom, seed 003): `Orphan` leaves the object in place, removing
 * Decom's ownership marks, instead of deleting it. Combined with the resource's own
 * `deletion_policy`: the non-destructive one wins (docs/policies.md "Adapter side").
 */
export type DeletePolicy = 'Delete' | 'Orphan';
export const DELETE_POLICIES: readonly DeletePolicy[] = ['Delete', 'Orphan'];

/**
 * `lifecycle.create.adoptionPolicy` (Decom, seed 003): what the apply path does with an object that
 * exists but is not Decom's (no ownership marker for this resource and adapter). `Adopt` (default):
 * take it over; `AdoptIfMatching`: only when every field the manifest sets already matches, else no
 * write; `FailIfExists`: never adopt, no write. An object carrying a release marker (orphaned from
 * another resource, `decom.io/released-from`) is adopted only under `AdoptReleased`, which
 * otherwise behaves as `Adopt`.
 */
export type AdoptionPolicy = 'Adopt' | 'AdoptIfMatching' | 'FailIfExists' | 'AdoptReleased';
export const ADOPTION_POLICIES: readonly AdoptionPolicy[] = ['Adopt', 'AdoptIfMatching', 'FailIfExists', 'AdoptReleased'];

/**
 * How a resource reaches its cluster: directly (`kubernetes`, the default) or as a ManifestWork
 * through Maestro to the consumer `target_cluster` (a template).
 */
export type TransportSpec = { readonly client: 'kubernetes' } | { readonly client: 'maestro'; readonly targetCluster: TemplateText };

/** A manifest inside a ManifestWork, found by its own discovery and promoted to `resources.<name>`. */
export interface NestedDiscoverySpec {
  readonly name: string;
  readonly where: string;
  readonly discovery: DiscoverySpec;
}

export interface ResourceSpec {
  readonly name: string;
  readonly where: string;
  readonly transport: TransportSpec;
  readonly manifest: ManifestSpec;
  readonly discovery: DiscoverySpec;
  /** Maestro only; `[]` otherwise. Names share the namespace of resource names (load-checked). */
  readonly nestedDiscoveries: readonly NestedDiscoverySpec[];
  readonly recreateOnChange: boolean;
  readonly lifecycle?: {
    /** `when` may be left out when `adoptionPolicy` is given (Decom). */
    readonly create?: { readonly when?: CelExpr; readonly adoptionPolicy: AdoptionPolicy };
    readonly delete?: { readonly propagationPolicy: PropagationPolicy; readonly policy: DeletePolicy; readonly when: CelExpr };
  };
}

export interface PayloadSpec {
  readonly name: string;
  readonly when?: CelExpr;
  readonly build: TemplateTree;
}

export interface PostActionSpec {
  readonly name: string;
  readonly when?: CelExpr;
  readonly apiCall?: ApiCallSpec;
  readonly log?: LogSpec;
}

export interface PostSpec {
  readonly payloads: readonly PayloadSpec[];
  readonly postActions: readonly PostActionSpec[];
}

/** Names the runtime provides to every CEL expression and template (cannot be params/captures). */
export const RESERVED_CONTEXT_NAMES = ['adapter', 'resources', 'env', 'event', 'config'] as const;

/** Built-in variable that a param or capture of the same name may override (Decom). */
export const DELETED_TIME_VARIABLE = 'deleted_time';
