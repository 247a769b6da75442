/**
 * Stored resource rows as the API presents them (`presentResource`), plus what only the read time knows: a
 * deletion past its kind's `deletion_timeout_seconds` shows `DeletionTimedOut=True` (seed 000 deletion timeout).
 * Keeps the presented JSON text per resource (PresentedJsonCache), shared by single reads and lists so a page
 * read warms the GETs of its items.
 */
import { ConditionType, Reason, type KindRegistry } from '@decom/domain';
import { presentResource, type ResourceJson } from '../resource-presenter.js';
import type { ResourceRow } from '../resource-view.schema.js';
import { PresentedJsonCache } from '../presented-json-cache.js';

export class PresentedResources {
  private readonly texts = new PresentedJsonCache();

  /**
   * @param kinds when given, resources pending deletion past their kind's `deletion_timeout_seconds` show
   *   `DeletionTimedOut=True` (evaluated at read time with `now`).
   */
  constructor(
    private readonly kinds?: KindRegistry,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The kept JSON text of resource `id` when it was read at `version` (undefined: not kept, or written since). */
  kept(id: string, version: number | undefined): { readonly kind: string; readonly text: string } | undefined {
    return this.texts.atVersion(id, version);
  }

  /** The JSON text of `present(row)`, through the cache (not kept while it depends on the clock). */
  textOf(row: ResourceRow, version: number | undefined): string {
    return this.texts.textOf(row, version, (r) => this.present(r), !this.dependsOnClock(row));
  }

  present(row: ResourceRow): ResourceJson {
    const json = presentResource(row);
    const timeout = this.kinds?.find(row.kind)?.deletion_timeout_seconds;
    if (!row.deleted_time || timeout === undefined) return json;
    const deadline = Date.parse(row.deleted_time) + timeout * 1000;
    if (this.now().getTime() < deadline) return json;
    const reconciled = json.status.conditions.find((c) => c.type === ConditionType.Reconciled);
    const at = new Date(deadline).toISOString();
    return {
      ...json,
      status: {
        conditions: [
          ...json.status.conditions,
          {
            type: ConditionType.DeletionTimedOut,
            status: 'True',
            reason: Reason.DeletionTimeoutExceeded,
            message: `Finalizing for more than ${timeout}s; still waiting: ${reconciled?.message ?? ''}`,
            observed_generation: json.generation,
            created_time: at,
            last_updated_time: at,
            last_transition_time: at,
          },
        ],
      },
    };
  }

  /** A deletion of a kind with `deletion_timeout_seconds` shows DeletionTimedOut once the time passed. */
  private dependsOnClock(row: ResourceRow): boolean {
    return row.deleted_time !== null && this.kinds?.find(row.kind)?.deletion_timeout_seconds !== undefined;
  }
}
