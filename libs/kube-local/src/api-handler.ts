/**
 * Turns one decoded HTTP request into the local API server's answer: discovery documents, or a
 * resource verb (get, list, create, update, patch, delete, deletecollection) run against the store.
 * Errors come back as `Status` bodies with their code, never as exceptions.
 */
import { parse as parseYaml } from 'yaml';
import type { ApiContext } from './api-context.js';
import { deleteObject, type DeleteRequest } from './deletion.js';
import { apiGroup, apiGroupList, apiResourceList, apiVersions, versionInfo } from './discovery.js';
import { eventTable, TABLE_CONTENT_TYPE, wantsTable } from './event-table.js';
import { openApiV2, openApiV3Document, openApiV3Root } from './openapi.js';
import type { FieldValidation, ResourceOperations } from './resource-operations.js';
import type { Route } from './router.js';
import { nestsDeeperThan } from './nesting-depth.js';
import {
  badRequest,
  invalidOptions,
  KubeStatusError,
  methodNotAllowed,
  routeNotFound,
  unsupportedMediaType,
  type FieldError,
} from './status-errors.js';

export interface ApiRequest {
  readonly method: string;
  readonly route: Route;
  readonly query: Readonly<Record<string, string>>;
  readonly rawBody: string;
  readonly contentType: string;
  /** The `Accept` header, `''` when absent. */
  readonly accept?: string;
  /** The `User-Agent` header, `''` when absent (its prefix names the field manager when the query does not). */
  readonly userAgent?: string;
  /** `host:port` the server listens on, for `/api`'s `serverAddressByClientCIDRs`. */
  readonly serverAddress: string;
}

export interface ApiResponse {
  readonly code: number;
  /** JSON body, or a plain string (health endpoints). */
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

const JOB_ORPHAN_WARNING =
  '299 - "child pods are preserved by default when jobs are deleted; set propagationPolicy=Background to remove them or set propagationPolicy=Orphan to suppress this warning"';

/** The Kubernetes verb of a request, or undefined for non-resource paths. */
export function verbOf(method: string, route: Route, query: Readonly<Record<string, string>>): string | undefined {
  if (route.type !== 'resource') return undefined;
  switch (method.toUpperCase()) {
    case 'GET':
      // `?watch=true` on a single object is the deprecated form of a watch with `metadata.name=<name>`.
      if (query.watch === 'true' || query.watch === '1') return route.subresource === undefined ? 'watch' : 'get';
      return route.name !== undefined ? 'get' : 'list';
    case 'POST':
      return 'create';
    case 'PUT':
      return 'update';
    case 'PATCH':
      return 'patch';
    case 'DELETE':
      return route.name !== undefined ? 'delete' : 'deletecollection';
    default:
      return undefined;
  }
}

/** The body formats this server decodes (kube-apiserver also takes protobuf and CBOR; this one does not). */
const BODY_TYPES = ['application/json', 'application/yaml'];

/**
 * @throws KubeStatusError 415 UnsupportedMediaType for a protobuf or CBOR body: the answer kube-apiserver
 *   gives a format it does not serve (staging/src/k8s.io/apiserver/pkg/endpoints/handlers/negotiation
 *   NegotiateInputSerializer), which tells a client to send JSON.
 */
function parseBody(rawBody: string, contentType: string): unknown {
  if (/protobuf|cbor/i.test(contentType)) throw unsupportedMediaType(contentType.split(';')[0]!.trim(), BODY_TYPES);
  if (rawBody.trim() === '') return undefined;
  let body: unknown;
  try {
    body = /yaml/i.test(contentType) ? parseYaml(rawBody) : JSON.parse(rawBody);
  } catch (error) {
    throw badRequest(`couldn't get version/kind; json parse error: ${(error as Error).message}`);
  }
  if (nestsDeeperThan(body)) throw badRequest(`couldn't get version/kind; json parse error: exceeded max depth`);
  return body;
}

function isDryRun(value: unknown): boolean {
  return value === 'All' || (Array.isArray(value) && value.includes('All'));
}

const OPTIONS_KIND: Readonly<Record<string, string>> = {
  create: 'CreateOptions',
  update: 'UpdateOptions',
  patch: 'PatchOptions',
  delete: 'DeleteOptions',
  deletecollection: 'DeleteOptions',
};
const FIELD_VALIDATIONS: readonly FieldValidation[] = ['Ignore', 'Warn', 'Strict'];

/**
 * `dryRun` may only be `All` and `fieldValidation` one of Ignore/Warn/Strict
 * (staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/validation/validation.go ValidateDryRun,
 * ValidateFieldValidation, called by ValidateCreateOptions & co.).
 * @throws KubeStatusError 422 Invalid with `details.kind` the options kind.
 */
function checkWriteOptions(verb: string, query: Readonly<Record<string, string>>, body?: unknown): void {
  const kind = OPTIONS_KIND[verb];
  if (!kind) return;
  const errors: FieldError[] = [];
  const bodyDryRun =
    kind === 'DeleteOptions' && typeof body === 'object' && body !== null ? (body as { dryRun?: unknown }).dryRun : undefined;
  const dryRuns =
    bodyDryRun !== undefined
      ? Array.isArray(bodyDryRun)
        ? bodyDryRun
        : [bodyDryRun]
      : query.dryRun !== undefined && query.dryRun !== ''
        ? [query.dryRun]
        : [];
  if (dryRuns.length > 0 && !(dryRuns.length === 1 && dryRuns[0] === 'All')) {
    errors.push({
      reason: 'FieldValueNotSupported',
      field: 'dryRun',
      message: `Unsupported value: ${JSON.stringify(dryRuns.length === 1 ? dryRuns[0] : dryRuns)}: supported values: "All"`,
    });
  }
  const fieldValidation = query.fieldValidation;
  if (
    kind !== 'DeleteOptions' &&
    fieldValidation !== undefined &&
    fieldValidation !== '' &&
    !FIELD_VALIDATIONS.includes(fieldValidation as FieldValidation)
  ) {
    errors.push({
      reason: 'FieldValueNotSupported',
      field: 'fieldValidation',
      message: `Unsupported value: ${JSON.stringify(fieldValidation)}: supported values: "Ignore", "Warn", "Strict"`,
    });
  }
  if (errors.length > 0) throw invalidOptions(kind, errors);
}

/** One `Warning` header value per text (RFC 7234 §5.5, code 299 as kube-apiserver sends them). */
function warningHeader(warnings: readonly string[]): Record<string, string> {
  return warnings.length === 0 ? {} : { Warning: warnings.map((w) => `299 - ${JSON.stringify(w)}`).join(', ') };
}

/** DeleteOptions from the body when there is one, else from the query (kube-apiserver's delete handler). */
function deleteRequestOf(query: Readonly<Record<string, string>>, body: unknown): DeleteRequest {
  if (body !== undefined) {
    if (typeof body !== 'object' || body === null) throw badRequest('DeleteOptions must be a JSON object');
    const options = body as Record<string, unknown>;
    return {
      ...(typeof options.propagationPolicy === 'string' ? { propagationPolicy: options.propagationPolicy } : {}),
      ...(typeof options.orphanDependents === 'boolean' ? { orphanDependents: options.orphanDependents } : {}),
      ...(typeof options.preconditions === 'object' && options.preconditions !== null
        ? { preconditions: options.preconditions as DeleteRequest['preconditions'] }
        : {}),
      dryRun: isDryRun(options.dryRun),
    };
  }
  return {
    ...(query.propagationPolicy !== undefined ? { propagationPolicy: query.propagationPolicy } : {}),
    ...(query.orphanDependents !== undefined ? { orphanDependents: query.orphanDependents === 'true' } : {}),
    dryRun: isDryRun(query.dryRun),
  };
}

export class ApiHandler {
  constructor(
    private readonly ctx: ApiContext,
    private readonly ops: ResourceOperations,
  ) {}

  handle(request: ApiRequest): ApiResponse {
    try {
      return this.dispatch(request);
    } catch (error) {
      if (error instanceof KubeStatusError) return { code: error.status.code, body: error.status };
      throw error;
    }
  }

  private dispatch(request: ApiRequest): ApiResponse {
    const { route, method } = request;
    const isGet = method.toUpperCase() === 'GET';
    switch (route.type) {
      case 'notFound':
        throw routeNotFound();
      case 'health':
        return { code: 200, body: 'ok' };
      case 'version':
        return { code: 200, body: versionInfo() };
      case 'openapi':
        return this.openapi(request, route);
      case 'apiVersions':
      case 'groupList':
      case 'group':
      case 'resourceList':
        if (!isGet) throw methodNotAllowed(method);
        if (route.type === 'apiVersions') return { code: 200, body: apiVersions(request.serverAddress) };
        if (route.type === 'groupList') return { code: 200, body: apiGroupList(this.ctx.kinds) };
        if (route.type === 'group') return { code: 200, body: apiGroup(this.ctx.kinds, route.group) };
        return { code: 200, body: apiResourceList(this.ctx.kinds, route.group, route.version) };
      case 'resource':
        return this.resource(request, route);
    }
  }

  /**
   * The OpenAPI documents. v2 is served as JSON only: a client asking for protobuf alone (client-go's
   * `OpenAPISchema`) gets 406 NotAcceptable, as kube-openapi answers a format it cannot produce.
   */
  private openapi(request: ApiRequest, route: Extract<Route, { type: 'openapi' }>): ApiResponse {
    if (request.method.toUpperCase() !== 'GET') throw methodNotAllowed(request.method);
    const accept = request.accept ?? '';
    if (accept !== '' && !/json|\*\/\*/i.test(accept)) {
      return {
        code: 406,
        body: {
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Failure',
          message: `only application/json is served, not ${accept}`,
          reason: 'NotAcceptable',
          code: 406,
        },
      };
    }
    const version = String(versionInfo().gitVersion);
    if (route.version === 'v2') return { code: 200, body: openApiV2(this.ctx.kinds, version) };
    if (route.gvPath === undefined) return { code: 200, body: openApiV3Root(this.ctx.kinds, version) };
    const document = openApiV3Document(this.ctx.kinds, route.gvPath, version);
    if (!document) throw routeNotFound();
    return { code: 200, body: document, headers: { 'Cache-Control': 'public, immutable' } };
  }

  private resource(request: ApiRequest, route: Extract<Route, { type: 'resource' }>): ApiResponse {
    const { def, namespace, name, subresource } = route;
    const { query } = request;
    const verb = verbOf(request.method, route, query);
    const dryRun = isDryRun(query.dryRun);
    const body = verb === 'patch' ? undefined : parseBody(request.rawBody, request.contentType);
    if (verb !== undefined) checkWriteOptions(verb, query, body);
    const warnings: string[] = [];
    const fieldValidation = FIELD_VALIDATIONS.find((v) => v === query.fieldValidation);
    // kube-apiserver's managerOrUserAgent: the fieldManager parameter, else the User-Agent up to its first '/'.
    // An apply names its manager itself (PatchOptions validation); other writes fall back to the User-Agent.
    const isApply = request.contentType.split(';')[0]!.trim().toLowerCase() === 'application/apply-patch+yaml';
    const fieldManager = query.fieldManager ?? (isApply ? '' : (request.userAgent ?? '').split('/')[0]!);
    const force = query.force === undefined ? {} : { force: query.force === 'true' };
    const writeOptions = { dryRun, warnings, fieldManager, ...force, ...(fieldValidation ? { fieldValidation } : {}) };
    // A namespace's `finalize` subresource takes PUT only.
    if (subresource === 'finalize' && verb !== 'update') throw methodNotAllowed(request.method);
    switch (verb) {
      case 'get':
        return { code: 200, body: this.ops.get(def, namespace, name!) };
      case 'list': {
        const list = this.ops.list(def, namespace, {
          ...(query.labelSelector !== undefined ? { labelSelector: query.labelSelector } : {}),
          ...(query.fieldSelector !== undefined ? { fieldSelector: query.fieldSelector } : {}),
          ...(query.limit !== undefined ? { limit: Number(query.limit) } : {}),
          ...(query.continue !== undefined ? { continueToken: query.continue } : {}),
        });
        if (def.builtIn && def.apiVersion === 'v1' && def.kind === 'Event' && wantsTable(request.accept ?? '')) {
          return { code: 200, body: eventTable(list, this.ctx.now()), headers: { 'Content-Type': TABLE_CONTENT_TYPE } };
        }
        return { code: 200, body: list };
      }
      case 'watch':
        // Streams are served by the WatchHub before a request gets here.
        throw badRequest('watch requests are streamed, not answered');
      case 'create':
        if (name !== undefined || (def.namespaced && namespace === undefined)) throw methodNotAllowed(request.method);
        return { code: 201, body: this.ops.create(def, namespace, body, writeOptions), headers: warningHeader(warnings) };
      case 'update': {
        if (name === undefined) throw methodNotAllowed(request.method);
        const updated = this.ops.update(def, namespace, name, body, { ...writeOptions, ...(subresource ? { subresource } : {}) });
        return { code: 200, body: updated, headers: warningHeader(warnings) };
      }
      case 'patch': {
        if (name === undefined) throw methodNotAllowed(request.method);
        const result = this.ops.patch(def, namespace, name, request.contentType, request.rawBody, {
          ...writeOptions,
          ...(subresource ? { subresource } : {}),
        });
        return { code: result.created ? 201 : 200, body: result.object, headers: warningHeader(warnings) };
      }
      case 'delete': {
        if (subresource !== undefined) throw methodNotAllowed(request.method);
        const options = deleteRequestOf(query, body);
        const result = deleteObject(this.ctx, def, namespace, name!, options);
        const warn =
          def.defaultPropagation === 'Orphan' && options.propagationPolicy === undefined && options.orphanDependents === undefined;
        return { code: result.code, body: result.body, ...(warn ? { headers: { Warning: JOB_ORPHAN_WARNING } } : {}) };
      }
      case 'deletecollection':
        return { code: 200, body: this.deleteCollection(request, route, deleteRequestOf(query, body)) };
      default:
        throw methodNotAllowed(request.method);
    }
  }

  /** Deletes every listed object; answers with the list of what was deleted or marked, as real servers do. */
  private deleteCollection(request: ApiRequest, route: Extract<Route, { type: 'resource' }>, options: DeleteRequest): unknown {
    const { def, namespace } = route;
    const list = this.ops.list(def, namespace, {
      ...(request.query.labelSelector !== undefined ? { labelSelector: request.query.labelSelector } : {}),
      ...(request.query.fieldSelector !== undefined ? { fieldSelector: request.query.fieldSelector } : {}),
    });
    const items = list.items.map((item) => {
      const meta = item.metadata as { name: string; namespace?: string };
      const result = deleteObject(this.ctx, def, meta.namespace, meta.name, options);
      return result.removed ? item : result.body;
    });
    return { ...list, items };
  }
}
