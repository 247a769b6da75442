/**
 * Task-based commands. Time and the actor arrive on the command (`metadata`), never from a clock
 * inside the domain (STYLE §3).
 */

export interface CommandMetadata {
  /** RFC 3339 UTC. */
  readonly now: string;
  /** Caller identity (seed 001 "caller identity"); `deleted_by`, `created_by`, audit records. */
  readonly caller: string;
}

export interface CreateResource {
  readonly type: 'CreateResource';
  readonly id: string;
  readonly kind: string;
  readonly name: string;
  readonly spec: Readonly<Record<string, unknown>>;
  readonly labels: Readonly<Record<string, string>>;
  readonly owner?: { readonly id: string; readonly kind: string };
  readonly metadata: CommandMetadata;
}

export interface PatchResource {
  readonly type: 'PatchResource';
  readonly id: string;
  readonly kind: string;
  readonly spec?: Readonly<Record<string, unknown>>;
  readonly labels?: Readonly<Record<string, string>>;
  readonly metadata: CommandMetadata;
}

export interface RequestDeletion {
  readonly type: 'RequestDeletion';
  readonly id: string;
  readonly kind: string;
  readonly metadata: CommandMetadata;
}

export interface ReportedCondition {
  readonly type: string;
  readonly status: string;
  readonly reason?: string;
  readonly message?: string;
}

export interface ReportAdapterStatus {
  readonly type: 'ReportAdapterStatus';
  readonly id: string;
  readonly kind: string;
  readonly adapter: string;
  readonly observed_generation: number;
  /** RFC 3339 as sent by the adapter. */
  readonly observed_time: string;
  readonly conditions: readonly ReportedCondition[];
  readonly report_metadata?: Readonly<Record<string, unknown>>;
  readonly data?: Readonly<Record<string, unknown>>;
  readonly metadata: CommandMetadata;
}

export interface HardDelete {
  readonly type: 'HardDelete';
  readonly id: string;
  readonly kind: string;
  readonly metadata: CommandMetadata;
}

export interface ForceDelete {
  readonly type: 'ForceDelete';
  readonly id: string;
  readonly kind: string;
  readonly reason: string;
  readonly metadata: CommandMetadata;
}

export type ResourceCommand =
  | CreateResource
  | PatchResource
  | RequestDeletion
  | ReportAdapterStatus
  | HardDelete
  | ForceDelete;
