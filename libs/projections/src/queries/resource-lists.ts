/**
 * Pages of resources from the `resources` read model (`GET /resources`, `GET /<kind>`, children of a parent),
 * as objects or as JSON text. Totals are kept until the next read-model write (COUNT(*) is O(matches) per
 * request otherwise), and so are the page ids of recent queries: a repeated page reads nothing.
 */
import type { ResourceJson } from '../resource-presenter.js';
import type { ResourceRow } from '../resource-view.schema.js';
import type { ReadModelQueries } from '../runner/index.js';
import { CountCache } from '../count-cache.js';
import { listSql, type ListOptions, type ListSql } from './list-sql.js';
import type { Page } from './page.js';
import type { PresentedResources } from './presented-resources.js';

/** Distinct list queries whose page ids `listJson` keeps (for one `writeVersion`). */
const MAX_KEPT_PAGES = 256;

/** `JSON.stringify` of a `Page` whose items are already JSON text. */
function pageJson(page: number, total: number, texts: readonly string[]): string {
  return `{"page":${JSON.stringify(page)},"size":${texts.length},"total":${total},"items":[${texts.join(',')}]}`;
}

export class ResourceLists {
  private readonly totals: CountCache;
  /** Page ids per list query, kept for one `writeVersion` (listJson); the oldest is dropped first. */
  private readonly pages = new Map<string, { readonly version: number; readonly ids: readonly string[] }>();

  constructor(
    private readonly db: ReadModelQueries,
    private readonly presented: PresentedResources,
  ) {
    this.totals = new CountCache(db);
  }

  /** @throws SearchSyntaxError, SearchFieldError */
  async list(options: ListOptions): Promise<Page<ResourceJson>> {
    const sql = listSql(options, this.db.dialect);
    const total = await this.totals.count(countSql(sql), sql.params);
    const rows = await this.pageRows(sql, options);
    return { page: options.page, size: rows.length, total, items: rows.map((row) => this.presented.present(row)) };
  }

  /**
   * `list(options)` as JSON text (exactly `JSON.stringify(await list(options))`), items from the
   * presented-JSON cache. Where the store has a `writeVersion`, a repeated page with no
   * read-model write since reads only its total's cache and the kept items.
   * @throws SearchSyntaxError, SearchFieldError (as `list`)
   */
  async listJson(options: ListOptions): Promise<string> {
    const sql = listSql(options, this.db.dialect);
    const version = this.db.writeVersion?.();
    const total = await this.totals.count(countSql(sql), sql.params);
    const key = version === undefined ? undefined : pageKey(sql, options);
    let texts = key === undefined ? undefined : this.keptTexts(key, version);
    if (!texts) {
      const rows = await this.pageRows(sql, options);
      texts = rows.map((row) => this.presented.textOf(row, version));
      if (key !== undefined && version !== undefined) {
        this.pages.delete(key);
        this.pages.set(key, { version, ids: rows.map((row) => row.id) });
        if (this.pages.size > MAX_KEPT_PAGES) this.pages.delete(this.pages.keys().next().value!);
      }
    }
    return pageJson(options.page, total, texts);
  }

  /**
   * `listJson(options)` without a query or a promise, when its total, page and items are all kept and nothing
   * was written since (the hot list answers from here); undefined otherwise (then use `listJson`).
   * @throws SearchSyntaxError, SearchFieldError (as `list`)
   */
  keptListJson(options: ListOptions): string | undefined {
    const version = this.db.writeVersion?.();
    if (version === undefined) return undefined;
    const sql = listSql(options, this.db.dialect);
    const total = this.totals.kept(countSql(sql), sql.params);
    if (total === undefined) return undefined;
    const texts = this.keptTexts(pageKey(sql, options), version);
    return texts && pageJson(options.page, total, texts);
  }

  /** The kept items' texts of a page (key: its query) when the page and each item are kept at `version`. */
  private keptTexts(key: string, version: number | undefined): string[] | undefined {
    const kept = this.pages.get(key);
    if (!kept || kept.version !== version) return undefined;
    const texts: string[] = [];
    for (const id of kept.ids) {
      const item = this.presented.kept(id, version);
      if (!item) return undefined;
      texts.push(item.text);
    }
    return texts;
  }

  /** The page's rows, in `order`. */
  private async pageRows({ filter, params, order }: ListSql, options: ListOptions): Promise<ResourceRow[]> {
    // The page's ids first (an index-only scan where an index has the order), then their rows: skipping
    // `offset` index entries costs far less than skipping `offset` whole rows with their JSON columns.
    return this.db.query<ResourceRow>(
      `SELECT * FROM resources WHERE id IN (SELECT id FROM resources WHERE ${filter} ORDER BY ${order} LIMIT ? OFFSET ?) ORDER BY ${order}`,
      [...params, options.size, (options.page - 1) * options.size],
    );
  }
}

function countSql({ filter }: ListSql): string {
  return `SELECT COUNT(*) AS n FROM resources WHERE ${filter}`;
}

/** The key of one page of one list query, for the kept page ids. */
function pageKey({ filter, params, order }: ListSql, options: ListOptions): string {
  return JSON.stringify([filter, params, order, options.page, options.size]);
}
