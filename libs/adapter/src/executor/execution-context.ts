import type { ReportedHolder } from '@decom/domain';
import type { CelExpr, TemplateText } from '../config/task-config.types.js';
import { DELETED_TIME_VARIABLE } from '../config/task-config.types.js';
import type { KubeObject } from '../transport/resource-transport.port.js';
import type { AdapterMetadata, ExecutionError, ResourcePolicyState } from './execution-result.js';
import type { ExecutionRecorder } from './execution-recorder.js';
import { OWNERSHIP_LABELS, OWNER_ANNOTATION, ownerMark } from './ownership.js';
import { readResourcePolicy, UNREAD_RESOURCE_POLICY } from './resource-policy.js';

/** What Decom's rules decided during the resource phase, for the status overrides (status-overrides.ts). */
export interface DecomVerdicts {
  /** Every resource was orphaned in a deleting pass: `Finalized=True/Orphaned` with this message. */
  orphaned?: string;
  /** A pause holds the deletion: `Finalized=False`, nothing was done. */
  pausedHold?: boolean;
  /** First connection failure (Kubernetes or Maestro unreachable) of a failed pass. */
  connectionFailure?: string;
  /** Objects left in place because they are not Decom's, while deleting (`kind name`). */
  notOwned: string[];
  /** Objects deleted (or already being deleted) and still present, while deleting: the report's `data.holding`. */
  holding: ReportedHolder[];
  /** Namespaces released instead of deleted because they hold objects an Orphan deletion released (kept-in-namespace.ts). */
  keptNamespaces: string[];
}

/** Outcome of one CEL evaluation (errors are values here: each phase decides what they mean). */
export type Evaluation = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: string };

/** What every execution starts from. */
export interface ExecutionInputs {
  readonly adapter: { readonly name: string; readonly version?: string };
  readonly event: Readonly<Record<string, unknown>>;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly config: Readonly<Record<string, unknown>>;
  readonly now: () => Date;
  /** The worker's count of consecutive runs of this resource and adapter (the persistent backoff). */
  readonly attempt?: number;
}

type MutableMetadata = { -readonly [K in keyof AdapterMetadata]: AdapterMetadata[K] };

/**
 * Mutable state of one `execute()` call: params and captures, discovered resources, adapter
 * metadata, the `deleted_time` built-in, and the recorder. Builds the variables every CEL
 * expression and template sees (docs/adapter-expression-context.md).
 */
export class ExecutionContext {
  /** Params, captures, precondition responses and built payload strings, by name. */
  readonly params: Record<string, unknown> = {};
  /** Discovered objects by resource name; absent objects are left out, never `null` (STACK.md "CEL"). */
  readonly resources: Record<string, KubeObject> = {};
  private readonly metadata: MutableMetadata;
  private builtinDeletedTime: unknown = null;
  private deletedTimeSource: string | undefined;
  private policyState: ResourcePolicyState = UNREAD_RESOURCE_POLICY;
  /** Decisions of Decom's policy rules in this execution. */
  readonly verdicts: DecomVerdicts = { notOwned: [], holding: [], keptNamespaces: [] };

  constructor(
    readonly inputs: ExecutionInputs,
    readonly recorder: ExecutionRecorder,
  ) {
    this.metadata = {
      name: inputs.adapter.name,
      ...(inputs.adapter.version !== undefined && { version: inputs.adapter.version }),
      executionStatus: 'success',
      resourcesSkipped: false,
      skipReason: '',
      errorReason: '',
      errorMessage: '',
      resourceErrors: {},
    };
  }

  /** Snapshot of the adapter metadata (the `adapter` variable and the result's `adapter`). */
  adapterMetadata(): AdapterMetadata {
    return { ...this.metadata, resourceErrors: { ...this.metadata.resourceErrors } };
  }

  /**
   * Decom built-in: `deleted_time` comes from the first precondition response that *is* the
   * event's resource (`body.id === event.id`); `null` when that response has none.
   */
  offerResourceResponse(preconditionName: string, body: unknown): void {
    if (this.deletedTimeSource !== undefined || !body || typeof body !== 'object') return;
    const record = body as Record<string, unknown>;
    if (record.id === undefined || record.id !== this.inputs.event.id) return;
    this.deletedTimeSource = preconditionName;
    this.builtinDeletedTime = record[DELETED_TIME_VARIABLE] ?? null;
    this.policyState = readResourcePolicy(record, preconditionName);
  }

  /** Deleting, effective deletion policy and pause, from the same response as `deleted_time`. */
  get resourcePolicy(): ResourcePolicyState {
    return this.policyState;
  }

  /** The ownership marker of this resource and adapter (`<kind>/<id>/<adapter>`). */
  get ownerMark(): string {
    return ownerMark(this.inputs.event, this.inputs.adapter.name);
  }

  /** Which precondition `deleted_time` was taken from (for traces). */
  get deletedTimeFrom(): string | undefined {
    return this.deletedTimeSource;
  }

  /** Variables for CEL and templates; `overlay` (e.g. a response's top-level keys) sits below params. */
  vars(overlay: Readonly<Record<string, unknown>> = {}): Record<string, unknown> {
    return {
      ...overlay,
      [DELETED_TIME_VARIABLE]: this.builtinDeletedTime,
      ...this.params,
      adapter: this.adapterMetadata(),
      resources: celResources(this.resources),
      event: this.inputs.event,
      env: { ...this.inputs.env },
      config: this.inputs.config,
    };
  }

  /** Evaluates and records one expression. Never throws. */
  evaluate(expr: CelExpr, overlay?: Readonly<Record<string, unknown>>, where = expr.where): Evaluation {
    try {
      const value = expr.compiled.evaluate(this.vars(overlay), { now: this.inputs.now });
      this.recorder.cel({ where, expression: expr.source, value });
      return { ok: true, value };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.recorder.cel({ where, expression: expr.source, error: message });
      return { ok: false, error: message };
    }
  }

  /**
   * `evaluate` without a trace entry: for a look at another resource's `when` that decides nothing by itself
   * (resources.phase.ts `heldOfSameKind`). An error counts as not true.
   */
  holdsQuietly(expr: CelExpr): boolean {
    try {
      return expr.compiled.evaluate(this.vars(), { now: this.inputs.now }) === true;
    } catch {
      return false;
    }
  }

  /**
   * Renders a template string against the current variables.
   * @throws TemplateExecError (missing key, bad function argument...).
   */
  render(text: TemplateText, overlay?: Readonly<Record<string, unknown>>): string {
    if (!text.compiled) return text.source;
    return text.compiled.render(this.vars(overlay), { now: this.inputs.now });
  }

  markSkipped(reason: string): void {
    this.metadata.resourcesSkipped = true;
    this.metadata.skipReason = reason;
  }

  /**
   * Marks the execution failed. The first `executionError` wins (it names the root cause);
   * `errorReason`/`errorMessage` follow it.
   */
  fail(reason: string, error: ExecutionError): void {
    this.metadata.executionStatus = 'failed';
    if (this.metadata.executionError) return;
    this.metadata.executionError = error;
    this.metadata.errorReason = reason;
    this.metadata.errorMessage = error.message;
  }

  /** A per-resource error (delete failed, `when` could not be evaluated...): recorded, execution failed. */
  failResource(resource: string, error: ExecutionError, reason = 'ResourceFailed'): void {
    this.metadata.resourceErrors = { ...this.metadata.resourceErrors, [resource]: error };
    this.fail(reason, error);
  }
}

/**
 * The discovered objects as CEL and templates see them: without Decom's ownership marker (the
 * `decom.io/owner` annotation and `decom.io/managed-by`/`decom.io/owner-id` labels), which HyperFleet's objects do not carry
 * (an `annotations` or `labels` map left empty by it is dropped).
 */
function celResources(resources: Readonly<Record<string, KubeObject>>): Record<string, KubeObject> {
  const out: Record<string, KubeObject> = {};
  for (const [name, object] of Object.entries(resources)) {
    const annotations = object.metadata?.annotations;
    const labels = object.metadata?.labels;
    const marked = (annotations && OWNER_ANNOTATION in annotations) || (labels && OWNERSHIP_LABELS.some((label) => label in labels));
    if (!marked) {
      out[name] = object;
      continue;
    }
    const { annotations: _annotations, labels: _labels, ...metadata } = object.metadata;
    const { [OWNER_ANNOTATION]: _owner, ...restAnnotations } = annotations ?? {};
    const restLabels = Object.fromEntries(Object.entries(labels ?? {}).filter(([label]) => !OWNERSHIP_LABELS.includes(label)));
    out[name] = {
      ...object,
      metadata: {
        ...metadata,
        ...(Object.keys(restLabels).length > 0 && { labels: restLabels }),
        ...(Object.keys(restAnnotations).length > 0 && { annotations: restAnnotations }),
      },
    } as KubeObject;
  }
  return out;
}
