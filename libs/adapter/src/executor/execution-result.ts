/** The four executor phases, in order (HyperFleet: hyperfleet-adapter internal/executor/resource_executor.go). */
export type PhaseName = 'param_extraction' | 'preconditions' | 'resources' | 'post_actions';

/** `{phase, step, message}`: where an execution failed first. */
export interface ExecutionError {
  readonly phase: string;
  readonly step: string;
  readonly message: string;
}

/**
 * The `adapter` variable CEL expressions and templates see, and the metadata of a result.
 * Optional fields are left out (never `null`) so `adapter.?x.hasValue()` stays meaningful.
 * @see HyperFleet: hyperfleet-adapter docs/conventions/cel.md (the `adapter` map).
 */
export interface AdapterMetadata {
  readonly name: string;
  readonly version?: string;
  readonly executionStatus: 'success' | 'failed';
  readonly resourcesSkipped: boolean;
  readonly skipReason: string;
  readonly errorReason: string;
  readonly errorMessage: string;
  readonly executionError?: ExecutionError;
  readonly resourceErrors: Readonly<Record<string, ExecutionError>>;
}

export interface PhaseTrace {
  readonly phase: PhaseName;
  /** `skipped` = not run (earlier phase stopped the execution or skipped resources). */
  readonly status: 'success' | 'failed' | 'skipped';
  readonly detail?: string;
}

/**
 * `adopt`: a pre-existing object was marked Decom's (and updated when its generation differed);
 * `orphan`: left in place, Decom's ownership marks removed (or not, when unreachable: see reason);
 * `foreign`: an object that is not Decom's, left untouched (never deleted, adoption refused or not
 * attempted while deleting). Seed 003, docs/policies.md "Adapter side".
 */
export type ResourceOperationKind =
  'create' | 'update' | 'recreate' | 'skip' | 'delete' | 'wait' | 'blocked' | 'adopt' | 'orphan' | 'foreign';

/** What happened to one resource (one entry per resource processed). */
export interface ResourceOperation {
  readonly resource: string;
  readonly operation: ResourceOperationKind;
  readonly reason: string;
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
  /** Maestro consumer (`target_cluster`) when the resource goes through Maestro. */
  readonly consumer?: string;
}

/** One CEL evaluation; `where` is the config path of the expression. */
export type CelResult =
  | { readonly where: string; readonly expression: string; readonly value: unknown }
  | { readonly where: string; readonly expression: string; readonly error: string };

export interface ApiCallRecord {
  readonly method: string;
  readonly url: string;
  /** Absent when no HTTP answer came back. */
  readonly status?: number;
  readonly attempts?: number;
  readonly error?: string;
}

/** What the executor read from the resource's own precondition response (`body.id === event.id`). */
export interface ResourcePolicyState {
  /** `deleted_time` is set. */
  readonly deleting: boolean;
  /** The resource's effective `deletion_policy` (force-orphan included); `Delete` when not read. */
  readonly deletionPolicy: 'Delete' | 'Orphan';
  /** `status.conditions` holds `Paused=True` (the resource or an ancestor is paused). */
  readonly paused: boolean;
  /** The precondition the state was read from; absent when no precondition returned the resource. */
  readonly from?: string;
  /** `deleted_by` of the resource (who asked for the deletion), for release markers. */
  readonly deletedBy?: string;
}

/** One ownership decision on one object (seed 003). */
export interface PolicyOutcome {
  readonly resource: string;
  readonly outcome:
    'Adopted' | 'AdoptedWithDrift' | 'AdoptionConflict' | 'AlreadyExists' | 'Released' | 'NotOwned' | 'Orphaned' | 'OrphanMarksKept';
  readonly message: string;
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
  /** `AdoptionConflict`: the manifest's fields the existing object does not match. */
  readonly differences?: readonly string[];
  /** `AdoptedWithDrift`: each differing field with both values; `Adopted` after an overwrite: what it overwrote. */
  readonly drift?: readonly string[];
}

/** A condition the executor set on a built status payload, overriding the task config (Decom). */
export interface ConditionOverride {
  readonly payload: string;
  readonly type: string;
  readonly status: 'True' | 'False';
  readonly reason: string;
  readonly message: string;
}

/** The deletion/adoption policy side of one execution (docs/policies.md "Adapter side"). */
export interface PolicyReport {
  readonly resource: ResourcePolicyState;
  readonly outcomes: readonly PolicyOutcome[];
  readonly overrides: readonly ConditionOverride[];
}

export interface KubeCallRecord {
  readonly verb: 'get' | 'discover' | 'create' | 'replace' | 'delete';
  readonly kind: string;
  readonly name?: string;
  readonly namespace?: string;
  /** `maestro:<consumer>` for calls through Maestro; absent for Kubernetes. */
  readonly via?: string;
  /** `ok`, `not-found`, or the error reason. */
  readonly outcome: string;
}

export interface LogRecord {
  readonly level: 'debug' | 'info' | 'warning' | 'error';
  readonly message: string;
  readonly where: string;
}

/**
 * Everything one execution did, for the worker (status) and the CLI dry run (trace).
 * `status` equals `adapter.executionStatus`.
 */
export interface ExecutionResult {
  readonly status: 'success' | 'failed';
  readonly adapter: AdapterMetadata;
  readonly phases: readonly PhaseTrace[];
  readonly operations: readonly ResourceOperation[];
  readonly celResults: readonly CelResult[];
  readonly apiCalls: readonly ApiCallRecord[];
  readonly kubeCalls: readonly KubeCallRecord[];
  /** Bodies sent by post-action API calls (parsed JSON when possible), in order. */
  readonly statusReports: readonly unknown[];
  /** Built payloads by name (parsed), for traces. */
  readonly payloads: Readonly<Record<string, unknown>>;
  readonly logs: readonly LogRecord[];
  readonly policy: PolicyReport;
  /**
   * Set when the run carried a fence (run-fence.ts): `lost` says why it stopped (a later run took
   * over, the resource is gone or finalized); nothing was written after that, no status reported.
   */
  readonly fence?: { readonly generation: number; readonly sequence: number; readonly lost?: string };
}
