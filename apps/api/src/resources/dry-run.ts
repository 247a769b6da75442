/**
 * `?dryRun=All` on a DELETE: Kubernetes' flag for "decide, record nothing", answered with a deletion preview.
 * HyperFleet ignores unknown parameters, so a near miss (`dryrun`, `DryRun`, `dryRun[]`, another value, the
 * parameter twice) would really delete there; here it is refused (400, nothing recorded) so that a person
 * who typed a dry run never deletes by accident.
 */
import { ValidationFailed } from '@decom/domain';

/** The one value Kubernetes accepts (`metav1.DryRunAll`). */
export const DRY_RUN_ALL = 'All';

/**
 * Whether the query asks for a preview: `true` for exactly one `dryRun=All`, `false` when no parameter named
 * like dryRun is present.
 * @throws ValidationFailed (400, field `dryRun`) for any other spelling, value or repetition.
 */
export function isDryRun(query: unknown): boolean {
  const params = query !== null && typeof query === 'object' ? (query as Record<string, unknown>) : {};
  const given = Object.keys(params).filter((name) => name.replace(/\[\]$/, '').toLowerCase() === 'dryrun');
  if (given.length === 0) return false;
  const [name] = given as [string];
  const value = params[name];
  if (given.length === 1 && name === 'dryRun' && value === DRY_RUN_ALL) return true;
  throw refusal(name, value, given.length);
}

function refusal(name: string, value: unknown, names: number): ValidationFailed {
  const why =
    names > 1 || name.endsWith('[]') || Array.isArray(value)
      ? 'dryRun must be given once'
      : name !== 'dryRun'
        ? `the parameter is spelled dryRun, not ${name}`
        : `dryRun must be '${DRY_RUN_ALL}', got '${String(value).slice(0, 64)}'`;
  const message = `${why} (dryRun=${DRY_RUN_ALL} previews the deletion): nothing was deleted`;
  return new ValidationFailed(message, [{ field: 'dryRun', ...(typeof value === 'string' && { value: value.slice(0, 64) }), constraint: 'enum', message }]);
}
