/**
 * Resource kinds, as HyperFleet's `entities` config declares them.
 * Pure data: the domain receives a `KindRegistry` with each decision; it never reads files.
 */

import type { ConditionMappingRule } from './condition-mapping-rule.js';
import type { PropagationPolicy } from './deletion-order.js';

/** What happens to children when their parent is deleted (HyperFleet's cascade, seed 004). */
export type OnParentDelete = 'cascade' | 'restrict';

/** One entity descriptor. `kind` is PascalCase (`NodePool`), `plural` the URL segment (`nodepools`). */
export interface KindDescriptor {
  readonly kind: string;
  readonly plural: string;
  /** Empty/undefined for top-level kinds. */
  readonly parent_kind?: string;
  /** Only meaningful for child kinds; default `cascade`. */
  readonly on_parent_delete?: OnParentDelete;
  /** Adapters that must report `Finalized=True` before hard delete (seed 000 §Reconciled). */
  readonly required_adapters: readonly string[];
  readonly name_min_len?: number;
  readonly name_max_len?: number;
  /**
   * Decom: after this many seconds in Finalizing a resource shows `DeletionTimedOut=True`.
   * Timeouts never imply success: the deletion keeps waiting for its adapters.
   */
  readonly deletion_timeout_seconds?: number;
  /**
   * Decom: the propagation a DELETE of this kind uses when the request names none
   * (`?propagationPolicy=`); default `Background` (seed 000's parallel cleanup).
   */
  readonly deletion_propagation?: PropagationPolicy;
  /**
   * HyperFleet condition mapping (HyperFleet: hyperfleet-api docs/condition-mapping.md): compiled `conditions:`
   * rules, evaluated on each status report.
   */
  readonly conditions?: readonly ConditionMappingRule[];
  /**
   * Decom: before `HardDeleted`, confirm by ownership discovery that the hosted adapters left none of their
   * objects behind (cleanup-verification.ts). Absent = `true`; `false` trusts their `Finalized=True`.
   */
  readonly verify_cleanup?: boolean;
}

/** Lookup over the configured kinds. @throws UnknownKind from `get` for a kind never configured. */
export class KindRegistry {
  private readonly byKind: ReadonlyMap<string, KindDescriptor>;
  private readonly byPlural: ReadonlyMap<string, KindDescriptor>;

  constructor(readonly descriptors: readonly KindDescriptor[]) {
    this.byKind = new Map(descriptors.map((d) => [d.kind, d]));
    this.byPlural = new Map(descriptors.map((d) => [d.plural, d]));
  }

  find(kind: string): KindDescriptor | undefined {
    return this.byKind.get(kind);
  }

  get(kind: string): KindDescriptor {
    const descriptor = this.byKind.get(kind);
    if (!descriptor) throw new Error(`unknown resource kind '${kind}'`);
    return descriptor;
  }

  byPluralName(plural: string): KindDescriptor | undefined {
    return this.byPlural.get(plural);
  }

  /** Kinds whose `parent_kind` is `kind`. */
  childKindsOf(kind: string): KindDescriptor[] {
    return this.descriptors.filter((d) => d.parent_kind === kind);
  }

  /** The chain from the top-level kind down to `kind` (inclusive), e.g. `[Cluster, NodePool]`. */
  lineage(kind: string): KindDescriptor[] {
    const chain: KindDescriptor[] = [];
    let current: KindDescriptor | undefined = this.get(kind);
    while (current) {
      chain.unshift(current);
      current = current.parent_kind ? this.get(current.parent_kind) : undefined;
    }
    return chain;
  }
}
