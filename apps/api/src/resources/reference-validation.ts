/**
 * A create's or patch's `references` (ref_type → [{ id, kind }]) checked against the read model once it has
 * caught up with the log, so a target created or deleted just before the request is seen as it is now.
 */
import { Inject, Injectable } from '@nestjs/common';
import { KIND_REGISTRY, RESOURCE_QUERIES } from '@decom/application';
import { ValidationFailed, type FieldViolation, type KindRegistry, type References, type Tenancy } from '@decom/domain';
import type { ResourceQueries } from '@decom/projections';
import { READ_SIDE, type ReadSide } from '../tokens.js';

/** At most this many references per resource (each is a row in the reference index). */
const MAX_REFERENCES = 100;

const REF_TYPE_PATTERN = /^[a-z0-9]([-a-z0-9_]*[a-z0-9])?$/;

@Injectable()
export class ReferenceValidation {
  constructor(
    @Inject(READ_SIDE) private readonly readSide: ReadSide,
    @Inject(KIND_REGISTRY) private readonly kinds: KindRegistry,
    @Inject(RESOURCE_QUERIES) private readonly queries: ResourceQueries,
  ) {}

  /**
   * `raw` as `References` when every target is an existing, not deleting resource of the named kind visible in
   * `scope` (HyperFleet: referencing a soft-deleted target is a 400), from a read model caught up with the log.
   * @throws ValidationFailed listing every problem: a ref_type off its pattern, a list that is not one of
   *   `{ id, kind }` with a configured kind, more than MAX_REFERENCES targets, a missing or deleting target.
   */
  async validNow(raw: Record<string, unknown>, scope: Tenancy | null): Promise<References> {
    await this.readSide.catchUp?.();
    const violations: FieldViolation[] = [];
    let count = 0;
    for (const [refType, targets] of Object.entries(raw)) {
      if (!REF_TYPE_PATTERN.test(refType)) {
        violations.push({
          field: `references.${refType}`,
          constraint: 'pattern',
          message: 'ref_type must match ^[a-z0-9]([-a-z0-9_]*[a-z0-9])?$',
        });
        continue;
      }
      if (!Array.isArray(targets)) {
        violations.push({ field: `references.${refType}`, constraint: 'format', message: 'must be a list of { id, kind }' });
        continue;
      }
      for (const [i, t] of targets.entries()) {
        const field = `references.${refType}[${i}]`;
        const target = t as { id?: unknown; kind?: unknown };
        if (++count > MAX_REFERENCES) {
          violations.push({ field, constraint: 'max', message: `at most ${MAX_REFERENCES} references` });
          break;
        }
        if (typeof target?.id !== 'string' || target.id === '' || typeof target.kind !== 'string' || !this.kinds.find(target.kind)) {
          violations.push({ field, constraint: 'format', message: 'must be { id, kind } with a configured kind' });
          continue;
        }
        const problem = await this.targetProblem(target.id, target.kind, scope);
        if (problem) violations.push({ field, value: target.id, constraint: 'format', message: problem });
      }
    }
    if (violations.length > 0) throw new ValidationFailed(violations.map((v) => v.message).join('; '), violations);
    return raw as References;
  }

  /** Why `id` cannot be referenced as a `kind`, or undefined when it can. */
  private async targetProblem(id: string, kind: string, scope: Tenancy | null): Promise<string | undefined> {
    // A target outside the caller's tenancy is as unknown as a missing one (as in HyperFleet).
    const found = (await this.queries.visible(id, scope)) ? await this.queries.get(id) : undefined;
    if (!found || found.kind !== kind) return `no ${kind} with id '${id}'`;
    if (found.deleted_time) return `${kind} '${id}' is marked for deletion and cannot be referenced`;
    return undefined;
  }
}
