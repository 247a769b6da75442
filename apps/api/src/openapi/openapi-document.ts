/**
 * The OpenAPI 3.0 document of every Decom endpoint (issue 13 §5), built from the kinds of the entities
 * config so each kind's concrete paths appear (`/clusters/{id}`, `/clusters/{cluster_id}/nodepools/{id}`,
 * flat `/nodepools/{id}`), with HyperFleet's wire shapes (contract §1: resource, list page, adapter
 * status, RFC 9457 problem details) and Decom's own endpoints (finalizing, events, pause/unpause,
 * force-orphan, force-delete, GraphQL pointer). Schemas are JSON-Schema compatible (ajv validates
 * responses against them in openapi.e2e-spec.ts). Served at `/api/hyperfleet/v1/openapi.{yaml,json}`.
 */
import type { KindDescriptor, KindRegistry } from '@decom/domain';

type Json = Record<string, unknown>;
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: Json) => ({ 'application/json': { schema } });
const problemResponse = { description: 'RFC 9457 problem details (HyperFleet error model)', content: { 'application/problem+json': { schema: ref('Problem') } } };
const answer = (description: string, schema?: Json) => (schema ? { description, content: json(schema) } : { description });
const idParam = (name: string, what: string) => ({ name, in: 'path', required: true, description: `${what} id (UUID v7)`, schema: { type: 'string' } });
const listParams = [
  { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1, default: 1 } },
  { name: 'size', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 100 } },
  { name: 'search', in: 'query', description: 'TSL filter (contract §1.6)', schema: { type: 'string' } },
  { name: 'orderBy', in: 'query', description: 'e.g. `created_time desc`', schema: { type: 'string' } },
  { name: 'fields', in: 'query', description: 'sparse field set, comma separated', schema: { type: 'string' } },
];
const reasonBody = (required: boolean) => ({ required, content: json(ref(required ? 'ReasonRequired' : 'Reason')) });

const TIME = { type: 'string', format: 'date-time' };

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
          "Free JSON (contract §1.2). Decom's executor adds `holding` while deleting: `[{kind, namespace?, name, finalizers, deletion_timestamp}]`, the objects it waits on; `/finalizing` shows them on the adapter's AdapterNotFinalized blocker",
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
                  type: { type: 'string', enum: ['Paused', 'DeadLettered', 'AdapterNotFinalized', 'InUse', 'DependencyCycle', 'DeletionBlocked', 'DependentsRemaining', 'TimedOut'] },
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

/** The operations on one resource address (`base` = its path, `params` = its path parameters). */
function resourceOperations(kind: KindDescriptor, base: string, params: Json[], children: KindDescriptor[]): Record<string, Json> {
  const tag = [kind.kind];
  const paths: Record<string, Json> = {
    [base]: {
      parameters: params,
      get: { tags: tag, summary: `Get a ${kind.kind}`, parameters: [listParams[4]], responses: { 200: answer(kind.kind, ref('Resource')), default: problemResponse } },
      patch: { tags: tag, summary: `Patch a ${kind.kind} (409 while deleting)`, requestBody: { required: true, content: json(ref('PatchResource')) }, responses: { 200: answer(kind.kind, ref('Resource')), default: problemResponse } },
      delete: {
        tags: tag,
        summary: `Request deletion of a ${kind.kind} (seed 000): sets deleted_time, cascades to children`,
        parameters: [
          { name: 'delete_for_move', in: 'query', schema: { type: 'boolean' } },
          { name: 'propagationPolicy', in: 'query', schema: { type: 'string', enum: ['Foreground', 'Background'] } },
          {
            name: 'dryRun',
            in: 'query',
            description: "Kubernetes' dry run: `All` decides the DELETE and records nothing (200 with the plan; a refusal is the DELETE's error with `dry_run: true`). Any other value or spelling is a 400.",
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
          429: { description: 'deletion budget exceeded (limits.deletions): Retry-After in seconds; the problem names the budget (`budget: {kind, name, limit, used, tenant?}`)', headers: { 'Retry-After': { schema: { type: 'integer' } } }, content: { 'application/problem+json': { schema: ref('Problem') } } },
          default: problemResponse,
        },
      },
    },
    [`${base}/statuses`]: {
      parameters: params,
      get: { tags: tag, summary: 'Adapter statuses', parameters: listParams.slice(0, 2), responses: { 200: answer('statuses', ref('AdapterStatusList')), default: problemResponse } },
      put: {
        tags: tag,
        summary: 'Report an adapter status (contract §1.3)',
        requestBody: { required: true, content: json(ref('AdapterStatus')) },
        responses: { 200: answer('identical report, stored status', ref('AdapterStatus')), 201: answer('stored', ref('AdapterStatus')), 204: answer('discarded (future or stale generation)'), default: problemResponse },
      },
    },
    [`${base}/pause`]: { parameters: params, post: { tags: tag, summary: 'Pause (seed 004): adapters hold destructive work', requestBody: reasonBody(false), responses: { 200: answer(kind.kind, ref('Resource')), default: problemResponse } } },
    [`${base}/unpause`]: { parameters: params, post: { tags: tag, summary: 'Unpause', requestBody: reasonBody(false), responses: { 200: answer(kind.kind, ref('Resource')), default: problemResponse } } },
    [`${base}/force-orphan`]: { parameters: params, post: { tags: tag, summary: 'Force orphan (seed 003): finish the deletion leaving objects in place', requestBody: reasonBody(false), responses: { 200: answer(kind.kind, ref('Resource')), default: problemResponse } } },
    [`${base}/adapters/{adapter}/abandon`]: {
      parameters: [...params, { name: 'adapter', in: 'path', required: true, schema: { type: 'string' } }],
      post: {
        tags: tag,
        summary: 'Abandon one adapter of the deletion (admin): AdapterFinalized forced, with caller and reason, and a leak inventory of its objects; 409 unless Finalizing with that adapter pending',
        requestBody: reasonBody(true),
        responses: { 200: answer(kind.kind, ref('Resource')), default: problemResponse },
      },
    },
    [`${base}/force-delete`]: {
      parameters: params,
      post: { tags: tag, summary: 'Force delete (seed 001): remove a Finalizing resource and its subresources now', requestBody: reasonBody(true), responses: { 204: answer('removed'), default: problemResponse } },
    },
  };
  for (const child of children) {
    const collection = `${base}/${child.plural}`;
    paths[collection] = {
      parameters: params,
      get: { tags: [child.kind], summary: `List the ${child.kind}s of a ${kind.kind}`, parameters: listParams, responses: { 200: answer('page', ref('ResourceList')), default: problemResponse } },
      post: { tags: [child.kind], summary: `Create a ${child.kind}`, requestBody: { required: true, content: json(ref('CreateResource')) }, responses: { 201: answer(child.kind, ref('Resource')), default: problemResponse } },
    };
  }
  return paths;
}

/** @returns the OpenAPI 3.0.3 document (a plain JSON value) for the kinds of `kinds`. */
export function buildOpenApiDocument(kinds: KindRegistry, version: string): Json {
  const paths: Record<string, Json> = {};
  for (const kind of kinds.descriptors) {
    const children = kinds.childKindsOf(kind.kind);
    const parent = kind.parent_kind ? kinds.find(kind.parent_kind) : undefined;
    if (!parent) {
      paths[`/${kind.plural}`] = {
        get: { tags: [kind.kind], summary: `List ${kind.kind}s`, parameters: listParams, responses: { 200: answer('page', ref('ResourceList')), default: problemResponse } },
        post: { tags: [kind.kind], summary: `Create a ${kind.kind}`, requestBody: { required: true, content: json(ref('CreateResource')) }, responses: { 201: answer(kind.kind, ref('Resource')), default: problemResponse } },
      };
    } else {
      paths[`/${kind.plural}`] = {
        get: { tags: [kind.kind], summary: `List every ${kind.kind} (flat; create them under their ${parent.kind})`, parameters: listParams, responses: { 200: answer('page', ref('ResourceList')), default: problemResponse } },
      };
      const parentParam = `${parent.kind.toLowerCase()}_id`;
      Object.assign(paths, resourceOperations(kind, `/${parent.plural}/{${parentParam}}/${kind.plural}/{id}`, [idParam(parentParam, parent.kind), idParam('id', kind.kind)], []));
    }
    Object.assign(paths, resourceOperations(kind, `/${kind.plural}/{id}`, [idParam('id', kind.kind)], children));
  }
  paths['/resources'] = { get: { tags: ['Resource'], summary: 'List resources of every kind', parameters: listParams, responses: { 200: answer('page', ref('ResourceList')), default: problemResponse } } };
  paths['/resources/{id}'] = { parameters: [idParam('id', 'Resource')], get: { tags: ['Resource'], summary: 'Get any resource by id', responses: { 200: answer('resource', ref('Resource')), default: problemResponse } } };
  paths['/resources/{id}/events'] = {
    parameters: [idParam('id', 'Resource')],
    get: { tags: ['Resource'], summary: "A resource's history (also after hard delete)", responses: { 200: answer('events', ref('History')), default: problemResponse } },
  };
  return {
    openapi: '3.0.3',
    info: {
      title: 'Decom (HyperFleet-compatible API)',
      version,
      description: 'HyperFleet API wire format plus Decom operator endpoints. Every answer carries an `X-Request-Id` header (the trace id).',
    },
    servers: [{ url: '/api/hyperfleet/v1' }],
    paths: {
      ...paths,
      '/finalizing': {
        servers: [{ url: '/api/decom/v1' }],
        get: {
          tags: ['Decom'],
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
          tags: ['Decom'],
          summary: 'Force deletes and force orphans fleet-wide, newest first (issue #14)',
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
          tags: ['Decom'],
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
          tags: ['Decom'],
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
  const list = (summary: string, parameters: Json[] = []) => ({
    servers: decom,
    get: { tags: ['Decom'], summary, parameters, responses: { 200: answer('items', ref('ItemList')), default: problemResponse } },
  });
  return {
    '/leaks': list('Objects whose Decom owner no longer exists (leak scan)'),
    '/leaks/delete': {
      servers: decom,
      post: { tags: ['Decom'], summary: 'Delete the leaked objects (administrators; a reason is required)', requestBody: reasonBody(true), responses: { 200: answer('deleted', ref('ItemList')), default: problemResponse } },
    },
    '/jobs/failed': list('The job queue\'s dead-letter set (jobs that failed for good)', [{ name: 'queue', in: 'query', required: false, schema: { type: 'string' } }]),
    '/jobs/retry': {
      servers: decom,
      post: {
        tags: ['Decom'],
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
      get: { tags: ['Decom'], summary: 'The caller as the API sees it (identity, roles)', responses: { 200: answer('caller', { type: 'object' }), default: problemResponse } },
    },
    '/events/stream': {
      servers: decom,
      get: { tags: ['Decom'], summary: 'Live feed of recorded events (Server-Sent Events)', responses: { 200: { description: 'event stream', content: { 'text/event-stream': { schema: { type: 'string' } } } }, default: problemResponse } },
    },
    '/healthz': {
      servers: root,
      get: { tags: ['Health'], summary: 'Liveness', responses: { 200: answer('alive', { type: 'object', required: ['status'], properties: { status: { type: 'string', enum: ['ok'] } } }) } },
    },
    '/readyz': {
      servers: root,
      get: {
        tags: ['Health'],
        summary: 'Readiness from cached probes: event store and read models, Redis (noeviction), JWKS, loops within their lag bound, writes accepted',
        responses: {
          200: answer('ready', ref('Readiness')),
          503: answer('not ready (same shape, naming what is not ready)', ref('Readiness')),
        },
      },
    },
  };
}
