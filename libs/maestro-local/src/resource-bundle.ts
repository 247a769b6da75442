/**
 * Maestro's ResourceBundle (openapi `ResourceBundle`): one ManifestWork as the Maestro REST API
 * presents it. `status` is the agent's `ManifestBundleStatus` (`conditions`, `resourceStatus`).
 */

/** A `metav1.Condition` as the work agent reports it. */
export interface WorkCondition {
  readonly type: string;
  readonly status: 'True' | 'False' | 'Unknown';
  readonly reason: string;
  readonly message: string;
  readonly lastTransitionTime: string;
  readonly observedGeneration?: number;
}

/** One `statusFeedback.values[]` entry: `{name, fieldValue: {type, string|integer|boolean|jsonRaw}}`. */
export interface StatusFeedbackValue {
  readonly name: string;
  readonly fieldValue: {
    readonly type: 'String' | 'Integer' | 'Boolean' | 'JsonRaw';
    readonly string?: string;
    readonly integer?: number;
    readonly boolean?: boolean;
    readonly jsonRaw?: string;
  };
}

/** `status.resourceStatus[]` (OCM `ManifestCondition`). */
export interface ManifestCondition {
  readonly resourceMeta: {
    readonly ordinal: number;
    readonly group: string;
    readonly version: string;
    readonly kind: string;
    readonly resource: string;
    readonly name: string;
    readonly namespace: string;
  };
  readonly statusFeedback: { readonly values: readonly StatusFeedbackValue[] };
  readonly conditions: readonly WorkCondition[];
}

export interface ResourceBundle {
  readonly id: string;
  readonly kind: 'ResourceBundle';
  readonly href: string;
  /** The work's `metadata.name`. */
  readonly name: string;
  readonly consumer_name: string;
  /** Not in the openapi schema but stored by Maestro and searchable (`source='...'`). */
  readonly source: string;
  /** Starts at 1, +1 per accepted spec update. */
  readonly version: number;
  readonly created_at: string;
  readonly updated_at: string;
  /** Set while the agent has not yet confirmed a requested deletion. */
  readonly deleted_at?: string;
  readonly metadata: Record<string, unknown>;
  readonly manifests: readonly Record<string, unknown>[];
  readonly delete_option?: Record<string, unknown>;
  readonly manifest_configs?: readonly Record<string, unknown>[];
  readonly status?: { readonly conditions: readonly WorkCondition[]; readonly resourceStatus: readonly ManifestCondition[] };
}
