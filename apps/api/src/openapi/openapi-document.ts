/**
 * The OpenAPI 3.0 document of every Decom endpoint, built from the kinds of the entities
 * config so each kind's concrete paths appear (`/clusters/{id}`, `/clusters/{cluster_id}/nodepools/{id}`,
 * flat `/nodepools/{id}`), with HyperFleet's wire shapes (resource, list page, adapter
 * status, RFC 9457 problem details) and Decom's own endpoints (finalizing, events, pause/unpause,
 * force-orphan, force-delete, GraphQL pointer). Schemas are JSON-Schema compatible (ajv validates
 * responses against them in openapi.e2e-spec.ts). Served at `/api/hyperfleet/v1/openapi.{yaml,json}`.
 * Every operation HyperFleet's spec has keeps its operationId (`getClusters`, `postCluster`, `getClusterById`,
 * `getNodePoolsByClusterId`, `createNodePool`, `putResourceStatuses`, ...), the parameters the API really takes
 * (`order`, `size` default 20) and names its 4xx answers; Decom's own operations are tagged `Decom`.
 */
import type { KindDescriptor, KindRegistry } from '@decom/domain';

type Json = Record<string, unknown>;
/** Decom's operations that HyperFleet does not have carry this tag (besides their kind's). */
const DECOM = 'Decom';
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: Json) => ({ 'application/json': { schema } });
const problemResponse = { description: 'RFC 9457 problem details (HyperFleet error model)', content: { 'application/problem+json': { schema: ref('Problem') } } };
const answer = (description: string, schema?: Json) => (schema ? { description, content: json(schema) } : { description });
const idParam = (name: string, what: string) => ({ name, in: 'path', required: true, description: `${what} id (UUID v7)`, schema: { type: 'string' } });
const query = (name: string, schema: Json, description?: string) => ({ name, in: 'query', required: false, ...(description && { description }), schema });
const fieldsParam = query('fields', { type: 'string' }, 'sparse fieldset, comma separated (`id` always included; dotted names select nested fields)');
const pageParam = query('page', { type: 'integer', minimum: 1, maximum: 100000, default: 1 });
const sizeParam = query('size', { type: 'integer', minimum: 1, maximum: 100, default: 20 }, 'items per page');
const searchParam = query('search', { type: 'string', maxLength: 4096 }, 'TSL filter (hyperfleet-api pkg/db/sql_tsl.go), e.g. `status.conditions.Reconciled=\'True\' and labels.env=\'prod\'`');
/**
 * The list parameters as the API takes them (hyperfleet-api pkg/handlers/list_params.go): `order`, not
 * `orderBy`; `size`, default 20.
 */
const listParams = [
  searchParam,
  pageParam,
  sizeParam,
  query('order', { type: 'string', default: 'created_time desc' }, 'comma list of `field [asc|desc]`, field one of created_time, updated_time, name, generation, deleted_time, id'),
  fieldsParam,
  query('ref_type', { type: 'string' }, 'with ref_target_id: only resources whose `references.<ref_type>` names that target'),
  query('ref_target_id', { type: 'string' }, 'with ref_type'),
];
/** A status list takes `search` (over the status fields), `page`, `size` and `fields`; it is ordered by adapter. */
const statusListParams = [query('search', { type: 'string', maxLength: 4096 }, 'TSL over the status fields (`adapter`, `observed_generation`, `conditions.<Type>`, ...)'), pageParam, sizeParam, fieldsParam];
const reasonBody = (required: boolean) => ({ required, content: json(ref(required ? 'ReasonRequired' : 'Reason')) });

const TIME = { type: 'string', format: 'date-time' };
/** A break-glass action under the two-person rule: recorded as a request, `Location` names it. */
const AWAITING_APPROVAL = { description: 'two-person rule on (authorization.break_glass): recorded as a request a different administrator approves; Location names it', content: { 'application/json': { schema: { $ref: '#/components/schemas/BreakGlassRequest' } } } };

const SCHEMAS: Record<string, Json> = {
  Condition: {
    type: 'object',
    required: ['type', 'status'],
    properties: {
      type: { type: 'string' },
      status: { type: 'string', enum: ['True', 'False', 'Unknown'] },
      reason: { type: 'string' },
      message: { type: 'string' },
      observed_generation: { type: 'integer' },
      created_time: TIME,
      last_updated_time: TIME,
      last_transition_time: TIME,
    },
  },
  ObjectReference: { type: 'object', required: ['id', 'kind'], properties: { id: { type: 'string' }, kind: { type: 'string' }, href: { type: 'string' } } },
  Resource: {
    type: 'object',
    description: 'A HyperFleet resource (cluster, nodepool, any registered kind).',
    required: ['id', 'kind', 'href', 'name', 'spec', 'generation', 'status', 'created_time', 'updated_time', 'created_by', 'updated_by'],
    properties: {
      id: { type: 'string' },
      kind: { type: 'string' },
      href: { type: 'string' },
      name: { type: 'string' },
      spec: { type: 'object' },
      labels: { type: 'object', additionalProperties: { type: 'string' } },
      generation: { type: 'integer', minimum: 1 },
      status: { type: 'object', required: ['conditions'], properties: { conditions: { type: 'array', items: ref('Condition') } } },
      owner_references: ref('ObjectReference'),
      created_time: TIME,
      updated_time: TIME,
      created_by: { type: 'string' },
      updated_by: { type: 'string' },
      deleted_time: TIME,
      deleted_by: { type: 'string' },
      deletion_policy: { type: 'string', enum: ['Delete', 'Orphan'] },
      effective_deletion_policy: { type: 'object', required: ['policy', 'source'], properties: { policy: { type: 'string', enum: ['Delete', 'Orphan'] }, source: { type: 'string' } } },
      deletion_propagation: { type: 'string', enum: ['Foreground', 'Background'] },
      deletion_required_adapters: { type: 'array', items: { type: 'string' } },
      deletion_dispatch: {
        type: 'object',
        description: 'Once deleting: what dispatch may do, from the stored deletion status (run the adapters still to finalize, or hold with a reason)',
        required: ['action'],
        properties: {
          action: { type: 'string', enum: ['run', 'hold'] },
          adapters: { type: 'array', items: { type: 'string' } },
          reason: { type: 'string', enum: ['DependencyCycle', 'InUse', 'DependentsExist'] },
        },
      },
      references: { type: 'object', additionalProperties: { type: 'array', items: ref('ObjectReference') } },
      deletion_protection: { type: 'boolean', enum: [true], description: 'Present while deletion protection is set: a DELETE reaching this resource (itself or an ancestor\'s cascade) answers 409 naming it' },
      deletion_protection_set: {
        type: 'object',
        required: ['caller', 'reason', 'time'],
        description: 'Who set the protection, why (empty when no reason was given) and when',
        properties: { caller: { type: 'string' }, reason: { type: 'string' }, time: TIME },
      },
    },
  },
  ResourceList: {
    type: 'object',
    required: ['page', 'size', 'total', 'items'],
    properties: { kind: { type: 'string' }, page: { type: 'integer' }, size: { type: 'integer' }, total: { type: 'integer' }, items: { type: 'array', items: ref('Resource') } },
  },
  CreateResource: {
    type: 'object',
    required: ['kind', 'name', 'spec'],
    properties: {
      kind: { type: 'string' },
      name: { type: 'string' },
      spec: { type: 'object' },
      labels: { type: 'object', additionalProperties: { type: 'string' } },
      deletion_policy: { type: 'string', enum: ['Delete', 'Orphan'] },
      references: { type: 'object', additionalProperties: { type: 'array', items: ref('ObjectReference') } },
      deletion_protection: { type: 'boolean', description: 'true: DELETE of it or of an ancestor reaching it is refused (409); false clears it (admin, or operator when configured; needs deletion_protection_reason)' },
      deletion_protection_reason: { type: 'string', maxLength: 1024, description: 'why protection is set or cleared; recorded with the caller' },
    },
  },
  PatchResource: {
    type: 'object',
    minProperties: 1,
    properties: {
      spec: { type: 'object' },
      labels: { type: 'object', additionalProperties: { type: 'string' } },
      deletion_policy: { type: 'string', enum: ['Delete', 'Orphan'] },
      deletion_protection: { type: 'boolean', description: 'true: DELETE of it or of an ancestor reaching it is refused (409); false clears it (admin, or operator when configured; needs deletion_protection_reason)' },
      deletion_protection_reason: { type: 'string', maxLength: 1024, description: 'why protection is set or cleared; recorded with the caller' },
    },
  },
  AdapterStatus: {
    type: 'object',
    required: ['adapter', 'observed_generation', 'conditions'],
    properties: {
      adapter: { type: 'string' },
      observed_generation: { type: 'integer' },
      observed_time: TIME,
      conditions: { type: 'array', items: ref('Condition') },
      metadata: { type: 'object' },
      data: {
        type: 'object',
        description:
          "Free JSON (hyperfleet-api pkg/handlers/resource_status_handler.go). Decom's executor adds `holding` while deleting: `[{kind, namespace?, name, finalizers, deletion_timestamp}]`, the objects it waits on; `/finalizing` shows them on the adapter's AdapterNotFinalized blocker",
      },
      created_time: TIME,
      last_report_time: TIME,
    },
  },
  AdapterStatusList: {
    type: 'object',
    required: ['page', 'size', 'total', 'items'],
    properties: { kind: { type: 'string' }, page: { type: 'integer' }, size: { type: 'integer' }, total: { type: 'integer' }, items: { type: 'array', items: ref('AdapterStatus') } },
  },
  DeletionPreview: {
    type: 'object',
    description: 'A DELETE decided on current state and not carried out (`?dryRun=All`).',
    required: ['kind', 'dry_run', 'target', 'outcome', 'delete_for_move', 'resources'],
    properties: {
      kind: { type: 'string', enum: ['DeletionPreview'] },
      dry_run: { type: 'boolean', enum: [true] },
      target: { type: 'object', required: ['id', 'kind'], properties: { id: { type: 'string' }, kind: { type: 'string' }, name: { type: 'string' }, href: { type: 'string' } } },
      outcome: { type: 'string', enum: ['WouldDelete', 'AlreadyDeleting'], description: 'AlreadyDeleting: a DELETE would record nothing' },
      propagationPolicy: { type: 'string', enum: ['Foreground', 'Background'], description: 'as passed' },
      delete_for_move: { type: 'boolean' },
      resources: {
        type: 'array',
        description: 'every resource the DELETE would mark, in hard-delete order (children before their parent)',
        items: {
          type: 'object',
          required: ['id', 'kind', 'name', 'generation', 'deletion_policy', 'deletion_policy_source', 'deletion_propagation', 'required_adapters'],
          properties: {
            id: { type: 'string' },
            kind: { type: 'string' },
            name: { type: 'string' },
            generation: { type: 'integer', minimum: 2, description: 'the generation the mark would set' },
            cascaded_from: { type: 'string', description: 'the resource whose DELETE cascades here' },
            deletion_policy: { type: 'string', enum: ['Delete', 'Orphan'] },
            deletion_policy_source: { type: 'string' },
            deletion_propagation: { type: 'string', enum: ['Foreground', 'Background'] },
            required_adapters: { type: 'array', items: { type: 'string' } },
            notes: {
              type: 'array',
              items: { type: 'string' },
              description: 'what the plan implies beyond the record, e.g. an Orphan resource under a Delete ancestor: a Namespace that ancestor deletes is kept while it holds released objects',
            },
          },
        },
      },
    },
  },
  Reason: { type: 'object', properties: { reason: { type: 'string' } } },
  ReasonRequired: { type: 'object', required: ['reason'], properties: { reason: { type: 'string', minLength: 1 } } },
  History: {
    type: 'object',
    description: "A resource's events, also after it was hard-deleted.",
    required: ['id', 'kind', 'items'],
    properties: {
      id: { type: 'string' },
      kind: { type: 'string' },
      stream: { type: 'string' },
      total: { type: 'integer' },
      items: {
        type: 'array',
        items: {
          type: 'object',
          required: ['type', 'recorded_time', 'data'],
          properties: {
            position: { type: 'integer' },
            revision: { type: 'integer' },
            type: { type: 'string' },
            recorded_time: TIME,
            caller: { type: 'string' },
            trace_id: { type: 'string', description: 'trace id of the request or job that recorded it' },
            data: { type: 'object' },
          },
        },
      },
    },
  },
  FinalizingList: {
    type: 'object',
    required: ['total', 'items'],
    properties: {
      total: { type: 'integer' },
      items: {
        type: 'array',
        items: {
          type: 'object',
          required: ['id', 'kind', 'name', 'href', 'deleted_time'],
          properties: {
            id: { type: 'string' },
            kind: { type: 'string' },
            name: { type: 'string' },
            href: { type: 'string' },
            generation: { type: 'integer' },
            deleted_time: TIME,
            deleted_by: { type: 'string' },
            waiting_on_adapters: { type: 'array', items: { type: 'string' } },
            unhealthy_adapters: { type: 'array', items: { type: 'object' } },
            finalizing_seconds: { type: 'integer' },
            deletion_timeout_seconds: { type: 'integer' },
            // Why the deletion is pending, root causes first: the stored deletion status (libs/domain
            // deletion-status.ts) plus DeadLettered and TimedOut (finalizing-blockers.ts). Fields depend on `type`.
            blockers: {
              type: 'array',
              items: {
                type: 'object',
                required: ['type', 'message'],
                properties: {
                  type: { type: 'string', enum: ['JobQueueUnavailable', 'Paused', 'DeadLettered', 'AdapterNotFinalized', 'InUse', 'DependencyCycle', 'DeletionBlocked', 'DependentsRemaining', 'TimedOut'] },
                  message: { type: 'string' },
                  referrers: {
                    type: 'array',
                    description: 'InUse: each resource that references this one, whether it is deleting, and (one level) its own blockers',
                    items: {
                      type: 'object',
                      required: ['id', 'kind', 'name'],
                      properties: {
                        id: { type: 'string' },
                        kind: { type: 'string' },
                        name: { type: 'string' },
                        deleting: { type: 'boolean' },
                        blockers: { type: 'array', items: { type: 'object', required: ['type', 'message'], properties: { type: { type: 'string' }, message: { type: 'string' } } } },
                      },
                    },
                  },
                  members: {
                    type: 'array',
                    description: 'DependencyCycle: the members in order, the first repeated last',
                    items: { type: 'object', required: ['id', 'kind', 'name'], properties: { id: { type: 'string' }, kind: { type: 'string' }, name: { type: 'string' } } },
                  },
                  edges: {
                    type: 'array',
                    description: "DependencyCycle: `from`'s hard delete waits for `to`'s (InUse: `to` references `from`; RecordWait: `to` is `from`'s child record)",
                    items: {
                      type: 'object',
                      required: ['from', 'to', 'kind'],
                      properties: { from: { type: 'string' }, to: { type: 'string' }, kind: { type: 'string', enum: ['InUse', 'RecordWait'] } },
                    },
                  },
                  count: { type: 'integer', description: 'DependentsRemaining' },
                  ids: { type: 'array', items: { type: 'string' }, description: 'DependentsRemaining' },
                  holds_adapters: { type: 'boolean', description: 'DependentsRemaining: Foreground, the dependents hold the adapters too, not only the record' },
                  holding: {
                    type: 'array',
                    description:
                      "AdapterNotFinalized: the Kubernetes objects the adapter's last report (its `data.holding`) says it waits on: delete requested, still present (finalizers); `since` is the object's deletionTimestamp. The message names the first. Absent when the adapter named none",
                    items: {
                      type: 'object',
                      required: ['kind', 'name', 'finalizers', 'since'],
                      properties: { kind: { type: 'string' }, namespace: { type: 'string' }, name: { type: 'string' }, finalizers: { type: 'array', items: { type: 'string' } }, since: TIME },
                    },
                  },
                  no_worker: {
                    type: 'boolean',
                    description: "AdapterNotFinalized: true while no process consumes the adapter's job queue (`adapter-run.<adapter>`: no `decom worker` for it); the message then says so first. Absent otherwise",
                  },
                },
              },
            },
          },
        },
      },
    },
  },
  Readiness: {
    type: 'object',
    required: ['status'],
    properties: {
      status: { type: 'string', enum: ['ready', 'not_ready'] },
      // Each dependency that makes the process unready, from the cached background probes.
      failing: {
        type: 'array',
        items: { type: 'object', required: ['dependency', 'status', 'reason', 'since'], properties: { dependency: { type: 'string' }, status: { type: 'string', enum: ['down', 'unknown'] }, reason: { type: 'string' }, since: { type: 'string', format: 'date-time' } } },
      },
      checks: { type: 'object' },
      writes: {},
    },
  },
  BreakGlassRequest: {
    type: 'object',
    description: 'A break-glass request of the two-person rule (authorization.break_glass, docs/policies.md); status at the time asked.',
    required: ['request_id', 'action', 'target', 'generation', 'reason', 'requested_by', 'requested_time', 'expires_at', 'status', 'href'],
    properties: {
      request_id: { type: 'string' },
      action: { type: 'string', enum: ['force_delete', 'force_orphan', 'unpause', 'delete_leaks'] },
      target: { type: 'object', required: ['kind', 'id'], properties: { kind: { type: 'string' }, id: { type: 'string' } } },
      generation: { type: 'integer', minimum: 0 },
      reason: { type: 'string' },
      requested_by: { type: 'string' },
      requested_time: TIME,
      expires_at: TIME,
      status: { type: 'string', enum: ['Pending', 'Approved', 'Rejected', 'Voided', 'Expired'] },
      objects: { type: 'array', items: { type: 'object' } },
      decision: { type: 'object', required: ['status', 'by', 'time'], properties: { status: { type: 'string', enum: ['Approved', 'Rejected', 'Voided'] }, by: { type: 'string' }, time: TIME, reason: { type: 'string' }, current_generation: { type: 'integer' } } },
      href: { type: 'string' },
    },
  },
  BreakGlassRequestList: { type: 'object', required: ['total', 'items'], properties: { total: { type: 'integer', minimum: 0 }, items: { type: 'array', items: ref('BreakGlassRequest') } } },
  BreakGlassApproval: { type: 'object', required: ['request'], properties: { request: ref('BreakGlassRequest'), deleted_leaks: ref('ItemList') } },
  ItemList: {
    type: 'object',
    required: ['total', 'items'],
    properties: { total: { type: 'integer', minimum: 0 }, items: { type: 'array', items: { type: 'object' } } },
  },
  Problem: {
    type: 'object',
    required: ['type', 'title', 'status', 'detail', 'code', 'timestamp', 'instance', 'trace_id'],
    properties: {
      type: { type: 'string' },
      title: { type: 'string' },
      status: { type: 'integer' },
      detail: { type: 'string' },
      code: { type: 'string', pattern: '^HYPERFLEET-[A-Z]{3}-[0-9]{3}$' },
      timestamp: TIME,
      instance: { type: 'string' },
      trace_id: { type: 'string', description: 'also the X-Request-Id response header' },
      errors: { type: 'array', items: { type: 'object', required: ['field', 'message'], properties: { field: { type: 'string' }, message: { type: 'string' } } } },
    },
  },
};

/**
 * Where a kind's single-resource operations live: `top` (`/clusters/{cluster_id}`), `nested` under the parent
 * (`/clusters/{cluster_id}/nodepools/{nodepool_id}`), `flat` (`/nodepools/{nodepool_id}`, child kinds only) or
 * `root` (`/resources/{id}`, every kind).
 */
type Address = 'top' | 'nested' | 'flat' | 'root';

/** `Cluster` → `Clusters`, `NodePool` → `NodePools`; a plural that is not `<kind>s` is used capitalised. */
const pluralName = (kind: KindDescriptor) => (kind.plural === `${kind.kind.toLowerCase()}s` ? `${kind.kind}s` : kind.plural.charAt(0).toUpperCase() + kind.plural.slice(1));

/**
 * The operationIds of one address, HyperFleet's where its spec has the operation (openshift-hyperfleet/hyperfleet-api
 * `openapi/openapi.yaml` and the clients generated from it: `getClusterById`, `patchClusterById`, `deleteClusterById`,
 * `forceDeleteCluster`, `getClusterStatuses`, `putClusterStatuses`; a child's nested ones `getNodePoolById`, ...,
 * `getNodePoolsStatuses`; the root's `getResourceById`, ..., `putResourceStatuses`). Every kind gets the same
 * pattern; the flat child routes, which HyperFleet's spec does not list, end in `Flat` so each id stays unique.
 */
function operationIds(kind: KindDescriptor, address: Address) {
  const k = address === 'root' ? 'Resource' : kind.kind;
  const flat = address === 'flat' ? 'Flat' : '';
  return {
    get: `get${k}ById${flat}`,
    patch: `patch${k}ById${flat}`,
    delete: `delete${k}ById${flat}`,
    forceDelete: `forceDelete${k}${flat}`,
    getStatuses: address === 'nested' ? `get${pluralName(kind)}Statuses` : `get${k}Statuses${flat}`,
    putStatuses: `put${k}Statuses${flat}`,
    pause: `pause${k}${flat}`,
    unpause: `unpause${k}${flat}`,
    forceOrphan: `forceOrphan${k}${flat}`,
    abandonAdapter: `abandon${k}Adapter${flat}`,
  };
}

/** Problem answers an operation names besides `default` (HyperFleet's spec lists them per operation). */
const problems = (...statuses: number[]) => Object.fromEntries(statuses.map((status) => [status, problemResponse]));

/** The operations on one resource address (`base` = its path, `params` = its path parameters). */
function resourceOperations(kind: KindDescriptor, base: string, params: Json[], address: Address): Record<string, Json> {
  const tag = address === 'root' ? ['Resource'] : [kind.kind];
  const decomTag = [DECOM, ...tag];
  const ids = operationIds(kind, address);
  const what = address === 'root' ? 'resource' : kind.kind;
  return {
    [base]: {
      parameters: params,
      get: { tags: tag, operationId: ids.get, summary: `Get a ${what}`, parameters: [fieldsParam], responses: { 200: answer(what, ref('Resource')), ...problems(400, 404), default: problemResponse } },
      patch: {
        tags: tag,
        operationId: ids.patch,
        summary: `Patch a ${what} (409 while deleting)`,
        requestBody: { required: true, content: json(ref('PatchResource')) },
        responses: { 200: answer(what, ref('Resource')), ...problems(400, 404, 409), default: problemResponse },
      },
      delete: {
        tags: tag,
        operationId: ids.delete,
        summary: `Request deletion of a ${what} (seed 000): sets deleted_time, cascades to children`,
        parameters: [
          { name: 'delete_for_move', in: 'query', description: 'Decom: keep the cloud objects for a move to another fleet', schema: { type: 'boolean' } },
          { name: 'propagationPolicy', in: 'query', description: 'Decom: Foreground waits for the dependents, Background does not', schema: { type: 'string', enum: ['Foreground', 'Background'] } },
          {
            name: 'dryRun',
            in: 'query',
            description: "Decom, Kubernetes' dry run: `All` decides the DELETE and records nothing (200 with the plan; a refusal is the DELETE's error with `dry_run: true`). Any other value or spelling is a 400.",
            schema: { type: 'string', enum: ['All'] },
          },
          {
            name: 'deletion_budget_override',
            in: 'query',
            description: "An administrator's reason (1..1024 characters) for going past the deletion budget (limits.deletions); recorded on DeletionRequested. Others: 403.",
            schema: { type: 'string', minLength: 1, maxLength: 1024 },
          },
        ],
        responses: {
          200: answer('dryRun=All: what the DELETE would do, nothing recorded', ref('DeletionPreview')),
          202: answer('deletion requested', ref('Resource')),
          ...problems(400, 404, 409),
          429: { description: 'deletion budget exceeded (limits.deletions): Retry-After in seconds; the problem names the budget (`budget: {kind, name, limit, used, tenant?}`)', headers: { 'Retry-After': { schema: { type: 'integer' } } }, content: { 'application/problem+json': { schema: ref('Problem') } } },
          default: problemResponse,
        },
      },
    },
    [`${base}/statuses`]: {
      parameters: params,
      get: { tags: tag, operationId: ids.getStatuses, summary: 'Adapter statuses', parameters: statusListParams, responses: { 200: answer('statuses', ref('AdapterStatusList')), ...problems(400, 404), default: problemResponse } },
      put: {
        tags: tag,
        operationId: ids.putStatuses,
        summary: 'Report an adapter status',
        requestBody: { required: true, content: json(ref('AdapterStatus')) },
        responses: {
          200: answer('identical report, stored status', ref('AdapterStatus')),
          201: answer('stored', ref('AdapterStatus')),
          204: answer('discarded (future or stale generation, Available=Unknown over a stored report)'),
          ...problems(400, 404, 409),
          default: problemResponse,
        },
      },
    },
    [`${base}/force-delete`]: {
      parameters: params,
      post: {
        tags: tag,
        operationId: ids.forceDelete,
        summary: 'Force delete (seed 001): remove a Finalizing resource and its subresources now',
        requestBody: reasonBody(true),
        responses: { 202: AWAITING_APPROVAL, 204: answer('removed'), ...problems(400, 404, 409), default: problemResponse },
      },
    },
    [`${base}/pause`]: { parameters: params, post: { tags: decomTag, operationId: ids.pause, summary: 'Pause (seed 004): adapters hold destructive work', requestBody: reasonBody(false), responses: { 200: answer(what, ref('Resource')), ...problems(400, 404), default: problemResponse } } },
    [`${base}/unpause`]: { parameters: params, post: { tags: decomTag, operationId: ids.unpause, summary: 'Unpause', requestBody: reasonBody(false), responses: { 200: answer(what, ref('Resource')), 202: AWAITING_APPROVAL, ...problems(400, 404), default: problemResponse } } },
    [`${base}/force-orphan`]: {
      parameters: params,
      post: { tags: decomTag, operationId: ids.forceOrphan, summary: 'Force orphan (seed 003): finish the deletion leaving objects in place', requestBody: reasonBody(false), responses: { 200: answer(what, ref('Resource')), 202: AWAITING_APPROVAL, ...problems(400, 404, 409), default: problemResponse } },
    },
    [`${base}/adapters/{adapter}/abandon`]: {
      parameters: [...params, { name: 'adapter', in: 'path', required: true, schema: { type: 'string' } }],
      post: {
        tags: decomTag,
        operationId: ids.abandonAdapter,
        summary: 'Abandon one adapter of the deletion (admin): AdapterFinalized forced, with caller and reason, and a leak inventory of its objects; 409 unless Finalizing with that adapter pending',
        requestBody: reasonBody(true),
        responses: { 200: answer(what, ref('Resource')), ...problems(400, 403, 404, 409), default: problemResponse },
      },
    },
  };
}

/** A collection: `list` and, where the API creates there, `create` (`null` for the flat child list). */
function collection(tag: string, listId: string, summary: string, params: Json[], create: { operationId: string; summary: string } | null, list = listParams): Json {
  return {
    ...(params.length > 0 && { parameters: params }),
    get: { tags: [tag], operationId: listId, summary, parameters: list, responses: { 200: answer('page', ref('ResourceList')), ...problems(400, ...(params.length > 0 ? [404] : [])), default: problemResponse } },
    ...(create && {
      post: {
        tags: [tag],
        ...create,
        requestBody: { required: true, content: json(ref('CreateResource')) },
        responses: { 201: answer('created', ref('Resource')), ...problems(400, ...(params.length > 0 ? [404] : []), 409), default: problemResponse },
      },
    }),
  };
}

/** @returns the OpenAPI 3.0.3 document (a plain JSON value) for the kinds of `kinds`. */
export function buildOpenApiDocument(kinds: KindRegistry, version: string): Json {
  const paths: Record<string, Json> = {};
  const idParamOf = (kind: KindDescriptor) => idParam(`${kind.kind.toLowerCase()}_id`, kind.kind);
  for (const kind of kinds.descriptors) {
    const parent = kind.parent_kind ? kinds.find(kind.parent_kind) : undefined;
    const own = `/${kind.plural}/{${kind.kind.toLowerCase()}_id}`;
    if (!parent) {
      paths[`/${kind.plural}`] = collection(kind.kind, `get${pluralName(kind)}`, `List ${kind.kind}s`, [], { operationId: `post${kind.kind}`, summary: `Create a ${kind.kind}` });
      Object.assign(paths, resourceOperations(kind, own, [idParamOf(kind)], 'top'));
      continue;
    }
    const parentBase = `/${parent.plural}/{${parent.kind.toLowerCase()}_id}`;
    paths[`${parentBase}/${kind.plural}`] = collection(kind.kind, `get${pluralName(kind)}By${parent.kind}Id`, `List the ${kind.kind}s of a ${parent.kind}`, [idParamOf(parent)], {
      operationId: `create${kind.kind}`,
      summary: `Create a ${kind.kind}`,
    });
    Object.assign(paths, resourceOperations(kind, `${parentBase}/${kind.plural}/{${kind.kind.toLowerCase()}_id}`, [idParamOf(parent), idParamOf(kind)], 'nested'));
    paths[`/${kind.plural}`] = collection(kind.kind, `get${pluralName(kind)}`, `List every ${kind.kind} (flat; create them under their ${parent.kind})`, [], null);
    Object.assign(paths, resourceOperations(kind, own, [idParamOf(kind)], 'flat'));
  }
  const rootKind: KindDescriptor = { kind: 'Resource', plural: 'resources', required_adapters: [] };
  paths['/resources'] = collection('Resource', 'getResources', 'List resources of every kind, or of one (`kind`)', [], { operationId: 'postResource', summary: 'Create a resource of a top-level kind (the body\'s `kind`)' }, [
    ...listParams,
    { name: 'kind', in: 'query', required: false, description: 'only resources of this kind (400 HYPERFLEET-VAL-000 for a kind never configured)', schema: { type: 'string' } },
  ]);
  Object.assign(paths, resourceOperations(rootKind, '/resources/{id}', [idParam('id', 'Resource')], 'root'));
  paths['/resources/{id}/events'] = {
    parameters: [idParam('id', 'Resource')],
    get: {
      tags: [DECOM],
      operationId: 'getResourceEvents',
      summary: "A resource's history (also after hard delete)",
      parameters: [
        { name: 'page', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100000, default: 1 } },
        { name: 'size', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 1000, default: 100 } },
      ],
      responses: { 200: answer('events', ref('History')), ...problems(400, 404), default: problemResponse },
    },
  };
  return {
    openapi: '3.0.3',
    info: {
      title: 'Decom (HyperFleet-compatible API)',
      version,
      description: 'HyperFleet API wire format plus Decom operator endpoints. Every answer carries an `X-Request-Id` header (the trace id).',
    },
    servers: [{ url: '/api/hyperfleet/v1' }],
    tags: [{ name: DECOM, description: "Decom's own operations and parameters: HyperFleet's API has no such operation" }],
    paths: {
      ...paths,
      '/finalizing': {
        servers: [{ url: '/api/decom/v1' }],
        get: {
          tags: [DECOM],
          operationId: 'getFinalizing',
          summary: 'Pending deletions and what they wait on',
          parameters: [
            { name: 'older_than_seconds', in: 'query', schema: { type: 'integer', minimum: 0 } },
            { name: 'kind', in: 'query', schema: { type: 'string' } },
            { name: 'blocker', in: 'query', description: 'comma list of blocker types', schema: { type: 'string' } },
            { name: 'search', in: 'query', description: 'TSL over the resources\' fields', schema: { type: 'string' } },
          ],
          responses: { 200: answer('pending deletions', ref('FinalizingList')), default: problemResponse },
        },
      },
      '/audit': {
        servers: [{ url: '/api/decom/v1' }],
        get: {
          tags: [DECOM],
          operationId: 'getAudit',
          summary: 'Force deletes and force orphans fleet-wide, newest first',
          parameters: [
            { name: 'type', in: 'query', description: 'ForceDeleted,ForceOrphaned', schema: { type: 'string' } },
            { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 1000 } },
          ],
          responses: {
            200: answer('audit entries', {
              type: 'object',
              required: ['total', 'items'],
              properties: {
                total: { type: 'integer' },
                items: {
                  type: 'array',
                  items: {
                    type: 'object',
                    required: ['position', 'type', 'id', 'kind', 'caller', 'reason', 'time', 'subresources', 'adapter_statuses'],
                    properties: {
                      position: { type: 'integer' }, type: { type: 'string', enum: ['ForceDeleted', 'ForceOrphaned'] }, id: { type: 'string' }, kind: { type: 'string' },
                      name: { type: 'string' }, caller: { type: 'string' }, reason: { type: 'string' }, time: TIME,
                      subresources: { type: 'array', items: { type: 'object' } }, adapter_statuses: { type: 'object' },
                    },
                  },
                },
              },
            }),
            default: problemResponse,
          },
        },
      },
      '/kinds': {
        servers: [{ url: '/api/decom/v1' }],
        get: {
          tags: [DECOM],
          operationId: 'getKinds',
          summary: 'The registered resource kinds (config/entities.yaml)',
          responses: {
            200: answer('kinds', {
              type: 'object',
              required: ['total', 'items'],
              properties: { total: { type: 'integer' }, items: { type: 'array', items: { type: 'object', required: ['kind', 'plural'], properties: { kind: { type: 'string' }, plural: { type: 'string' }, parent_kind: { type: 'string' } } } } },
            }),
            default: problemResponse,
          },
        },
      },
      ...decomPaths(),
      '/graphql': {
        servers: [{ url: '/' }],
        post: {
          tags: [DECOM],
          operationId: 'postGraphql',
          summary: 'GraphQL: the same queries and operator mutations; schema in apps/api/src/graphql/schema.ts',
          requestBody: { required: true, content: json({ type: 'object', required: ['query'], properties: { query: { type: 'string' }, variables: { type: 'object' } } }) },
          responses: { 200: answer('GraphQL response', { type: 'object', properties: { data: { type: 'object' }, errors: { type: 'array' } } }) },
        },
      },
    },
    components: { schemas: SCHEMAS },
  };
}

/** Decom's own operator endpoints under `/api/decom/v1`, and the health probes at the root. */
function decomPaths(): Record<string, Json> {
  const decom = [{ url: '/api/decom/v1' }];
  const root = [{ url: '/' }];
  const list = (operationId: string, summary: string, parameters: Json[] = []) => ({
    servers: decom,
    get: { tags: [DECOM], operationId, summary, parameters, responses: { 200: answer('items', ref('ItemList')), default: problemResponse } },
  });
  return {
    '/leaks': list('getLeaks', 'Objects whose Decom owner no longer exists (leak scan)'),
    '/leaks/delete': {
      servers: decom,
      post: { tags: [DECOM], operationId: 'deleteLeaks', summary: 'Delete the leaked objects (administrators; a reason is required)', requestBody: reasonBody(true), responses: { 200: answer('deleted', ref('ItemList')), 202: AWAITING_APPROVAL, default: problemResponse } },
    },
    ...breakGlassPaths(),
    '/jobs/failed': list('getFailedJobs', 'The job queue\'s dead-letter set (jobs that failed for good)', [{ name: 'queue', in: 'query', required: false, schema: { type: 'string' } }]),
    '/jobs/retry': {
      servers: decom,
      post: {
        tags: [DECOM],
        operationId: 'retryJob',
        summary: 'Send a dead-lettered job back to its queue with fresh attempts (administrators)',
        requestBody: { required: true, content: json({ type: 'object', required: ['queue', 'id'], properties: { queue: { type: 'string' }, id: { type: 'string' }, reason: { type: 'string' } } }) },
        responses: {
          200: answer('retried', { type: 'object', required: ['queue', 'id', 'retried'], properties: { queue: { type: 'string' }, id: { type: 'string' }, retried: { type: 'boolean', enum: [true] } } }),
          default: problemResponse,
        },
      },
    },
    '/whoami': {
      servers: decom,
      get: { tags: [DECOM], operationId: 'getWhoami', summary: 'The caller as the API sees it (identity, roles)', responses: { 200: answer('caller', { type: 'object' }), default: problemResponse } },
    },
    '/events/stream': {
      servers: decom,
      get: { tags: [DECOM], operationId: 'streamEvents', summary: 'Live feed of recorded events (Server-Sent Events)', responses: { 200: { description: 'event stream', content: { 'text/event-stream': { schema: { type: 'string' } } } }, default: problemResponse } },
    },
    '/healthz': {
      servers: root,
      get: { tags: [DECOM, 'Health'], operationId: 'getHealthz', summary: 'Liveness', responses: { 200: answer('alive', { type: 'object', required: ['status'], properties: { status: { type: 'string', enum: ['ok'] } } }) } },
    },
    '/readyz': {
      servers: root,
      get: {
        tags: [DECOM, 'Health'],
        operationId: 'getReadyz',
        summary: 'Readiness from cached probes: event store and read models, Redis (noeviction), JWKS, loops within their lag bound, writes accepted',
        responses: {
          200: answer('ready', ref('Readiness')),
          503: answer('not ready (same shape, naming what is not ready)', ref('Readiness')),
        },
      },
    },
  };
}

/** The two-person rule's approval queue (`/api/decom/v1/break-glass-requests`). */
function breakGlassPaths(): Record<string, Json> {
  const servers = [{ url: '/api/decom/v1' }];
  const request = ref('BreakGlassRequest');
  const requestId = { name: 'request_id', in: 'path', required: true, schema: { type: 'string' } };
  const decide = (operationId: string, summary: string, reasonRequired: boolean, answered: Json) => ({
    servers,
    parameters: [requestId],
    post: { tags: [DECOM], operationId, summary, requestBody: reasonBody(reasonRequired), responses: { 200: answer('decided', answered), ...problems(400, 403, 404, 409), default: problemResponse } },
  });
  return {
    '/break-glass-requests': {
      servers,
      get: {
        tags: [DECOM],
        operationId: 'getBreakGlassRequests',
        summary: 'Break-glass requests, newest first (two-person rule)',
        parameters: [
          { name: 'status', in: 'query', schema: { type: 'string', enum: ['Pending', 'Approved', 'Rejected', 'Voided', 'Expired'] } },
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 1000 } },
        ],
        responses: { 200: answer('requests', ref('BreakGlassRequestList')), default: problemResponse },
      },
    },
    '/break-glass-requests/{request_id}': {
      servers,
      parameters: [requestId],
      get: { tags: [DECOM], operationId: 'getBreakGlassRequest', summary: 'One break-glass request', responses: { 200: answer('request', request), ...problems(404), default: problemResponse } },
    },
    '/break-glass-requests/{request_id}/approve': decide(
      'approveBreakGlassRequest',
      'Approve (an administrator other than the requester): the action runs against the requested generation; 409 when the target moved (the request is voided) or the request is decided or expired',
      false,
      ref('BreakGlassApproval'),
    ),
    '/break-glass-requests/{request_id}/reject': decide('rejectBreakGlassRequest', 'Reject (administrators; a reason is required); nothing runs', true, request),
  };
}
