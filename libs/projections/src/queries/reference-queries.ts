/** Who references a subtree, from the `resource_references` read model (seed 004 "Delete guard"). */
import type { IndexedReference } from '@decom/domain';
import type { ReadModelQueries } from '../runner/index.js';

export class ReferenceQueries {
  constructor(private readonly db: ReadModelQueries) {}

  /**
   * Every stored reference into `rootId`'s subtree and, breadth-first, into those referrers in
   * turn, for the delete guard (seed 004), the cascade guard and cycle detection. The index's facts only
   * (who references whom, and the referrer's kind to find its tree): whether a referrer is paused or
   * deleting is read from its own tree by the domain (`referenceEdgeFrom`). Bounded: at most
   * `maxResources` resources are expanded (a longer chain is cut; the guard on the subtree itself is always
   * complete).
   */
  async indexedReferences(rootId: string, maxResources = 200): Promise<IndexedReference[]> {
    const queue: string[] = [rootId];
    for (let i = 0; i < queue.length; i++) {
      const children = await this.db.query<{ id: string }>(`SELECT id FROM resources WHERE owner_id = ? ORDER BY id`, [queue[i]]);
      queue.push(...children.map((c) => c.id));
    }
    const expanded = new Set(queue);
    const out: IndexedReference[] = [];
    for (let i = 0; i < queue.length && i < Math.max(maxResources, expanded.size); i++) {
      const target = queue[i]!;
      const rows = await this.db.query<{ id: string; kind: string }>(
        `SELECT DISTINCT r.id AS id, r.kind AS kind
           FROM resource_references x
           JOIN resources r ON r.id = x.referrer_id
          WHERE x.target_id = ?
          ORDER BY r.id`,
        [target],
      );
      for (const r of rows) {
        out.push({ target_id: target, id: r.id, kind: r.kind });
        if (!expanded.has(r.id) && expanded.size < maxResources) {
          expanded.add(r.id);
          queue.push(r.id);
        }
      }
    }
    return out;
  }
}
