/**
 * Read side: every GET reads projections only. Each read model has its own small query class (queries/);
 * `ResourceQueries` builds them over one read-model store and answers for all of them, so the API injects one
 * thing (`RESOURCE_QUERIES`). New code that reads one read model takes that part (`queries.index`, ...).
 */
import type { AdapterStatus, IndexedReference, KindRegistry, Tenancy } from '@decom/domain';
import type { ResourceJson } from './resource-presenter.js';
import type { ResourceIndexRow } from './resource-view.schema.js';
import type { ReadModelQueries } from './runner/index.js';
import { AdapterStatusQueries } from './queries/adapter-status-queries.js';
import { DeletionBudgetQueries, type DeletionBudgetUse } from './queries/deletion-budget-queries.js';
import { FinalizingQueries, type FinalizingFilter, type FinalizingJson } from './queries/finalizing-queries.js';
import type { ListOptions } from './queries/list-sql.js';
import type { Page } from './queries/page.js';
import { PresentedResources } from './queries/presented-resources.js';
import { ReferenceQueries } from './queries/reference-queries.js';
import { ResourceIndexQueries } from './queries/resource-index-queries.js';
import { ResourceLists } from './queries/resource-lists.js';
import { ResourceReads, type KeysetCursor } from './queries/resource-reads.js';

export class ResourceQueries {
  /** `resources`: single resources (by id, by name, keyset pages). */
  readonly reads: ResourceReads;
  /** `resources`: list pages with totals. */
  readonly lists: ResourceLists;
  /** `resource_index`: where a resource lives and its tenancy, also after hard delete. */
  readonly index: ResourceIndexQueries;
  /** `adapter_statuses`. */
  readonly adapterStatuses: AdapterStatusQueries;
  /** `resource_references`: who references a subtree. */
  readonly references: ReferenceQueries;
  /** `finalizing`: the stuck-deletion dashboard. */
  readonly finalizingDeletions: FinalizingQueries;
  /** `deletion_requests`: the deletion budget's use. */
  readonly deletionBudget: DeletionBudgetQueries;

  /**
   * @param kinds when given, resources pending deletion past their kind's `deletion_timeout_seconds` show
   *   `DeletionTimedOut=True` (evaluated at read time with `now`), and the dashboard a `TimedOut` blocker.
   */
  constructor(db: ReadModelQueries, kinds?: KindRegistry, now: () => Date = () => new Date()) {
    const presented = new PresentedResources(kinds, now);
    this.reads = new ResourceReads(db, presented);
    this.lists = new ResourceLists(db, presented);
    this.index = new ResourceIndexQueries(db);
    this.adapterStatuses = new AdapterStatusQueries(db);
    this.references = new ReferenceQueries(db);
    this.finalizingDeletions = new FinalizingQueries(db, kinds);
    this.deletionBudget = new DeletionBudgetQueries(db);
  }

  /** ResourceReads.get */
  get(id: string): Promise<ResourceJson | undefined> {
    return this.reads.get(id);
  }

  /** ResourceReads.getJson */
  getJson(id: string): Promise<{ readonly kind: string; readonly text: string } | undefined> {
    return this.reads.getJson(id);
  }

  /** ResourceReads.keptJson */
  keptJson(id: string): { readonly kind: string; readonly text: string } | undefined {
    return this.reads.keptJson(id);
  }

  /** ResourceReads.findByName */
  findByName(kind: string, name: string, ownerId?: string, tenant?: Tenancy | null): Promise<ResourceJson | undefined> {
    return this.reads.findByName(kind, name, ownerId, tenant);
  }

  /** ResourceReads.pageAfter */
  pageAfter(options: { readonly kind: string; readonly size: number; readonly after?: KeysetCursor }): Promise<ResourceJson[]> {
    return this.reads.pageAfter(options);
  }

  /** ResourceLists.list. @throws SearchSyntaxError, SearchFieldError */
  list(options: ListOptions): Promise<Page<ResourceJson>> {
    return this.lists.list(options);
  }

  /** ResourceLists.listJson. @throws SearchSyntaxError, SearchFieldError */
  listJson(options: ListOptions): Promise<string> {
    return this.lists.listJson(options);
  }

  /** ResourceLists.keptListJson. @throws SearchSyntaxError, SearchFieldError */
  keptListJson(options: ListOptions): string | undefined {
    return this.lists.keptListJson(options);
  }

  /** ResourceIndexQueries.locate */
  locate(id: string): Promise<ResourceIndexRow | undefined> {
    return this.index.locate(id);
  }

  /** ResourceIndexQueries.visible */
  visible(id: string, scope: Tenancy | null | undefined): Promise<boolean> {
    return this.index.visible(id, scope);
  }

  /** AdapterStatusQueries.statuses. @throws SearchSyntaxError, SearchFieldError */
  statuses(resourceId: string, page?: number, size?: number, search?: string): Promise<Page<AdapterStatus>> {
    return this.adapterStatuses.statuses(resourceId, page, size, search);
  }

  /** ReferenceQueries.indexedReferences */
  indexedReferences(rootId: string, maxResources?: number): Promise<IndexedReference[]> {
    return this.references.indexedReferences(rootId, maxResources);
  }

  /** FinalizingQueries.finalizing. @throws SearchSyntaxError, SearchFieldError */
  finalizing(now: Date, olderThanSeconds?: number, kind?: string, filter?: FinalizingFilter): Promise<FinalizingJson[]> {
    return this.finalizingDeletions.finalizing(now, olderThanSeconds, kind, filter);
  }

  /** DeletionBudgetQueries.deletionBudgetUse */
  deletionBudgetUse(kind: string, id: string, since: string): Promise<DeletionBudgetUse> {
    return this.deletionBudget.deletionBudgetUse(kind, id, since);
  }
}
