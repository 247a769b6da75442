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
export function isDryRun(query: unknown, body?: unknown): boolean {
  const params = asRecord(query);
  // Kubernetes clients may send the flag as DeleteOptions in the body: never carried out silently.
  const inBody = dryRunNames(asRecord(body));
  if (inBody.length > 0) throw refusal(inBody[0]!, asRecord(body)[inBody[0]!], inBody.length, 'in the body; pass ?dryRun=All');
  const given = dryRunNames(params);
  if (given.length === 0) return false;
  const [name] = given as [string];
  const value = params[name];
  if (given.length === 1 && name === 'dryRun' && value === DRY_RUN_ALL) return true;
  throw refusal(name, value, given.length);
}

/**
 * The parameter names that mean a dry run, however spelled (`dryRun`, `dryrun`, `dry_run`, `dry-run`,
 * `DryRun[]`, …): a near miss is refused rather than ignored.
 */
export function dryRunNames(params: Readonly<Record<string, unknown>>): string[] {
  return Object.keys(params).filter(
    (name) =>
      name
        .replace(/\[\]$/, '')
        .toLowerCase()
        .replace(/[^a-z]/g, '') === 'dryrun',
  );
}

/**
 * Refuses a dry-run flag on any write other than DELETE (create, PATCH, status reports, pause, force
 * delete, …): only a DELETE has a preview, and carrying out a write the caller meant as a dry run is the one
 * answer that must never happen.
 * @throws ValidationFailed (400, field `dryRun`) when the query names a dry run.
 */
export function refuseDryRunOnWrite(query: unknown): void {
  const given = dryRunNames(asRecord(query));
  if (given.length === 0) return;
  const message = `${given[0]} is supported only on DELETE (dryRun=${DRY_RUN_ALL} previews a deletion): nothing was recorded`;
  throw new ValidationFailed(message, [{ field: 'dryRun', constraint: 'enum', message }]);
}

function asRecord(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function refusal(name: string, value: unknown, names: number, where?: string): ValidationFailed {
  const why = where
    ? `${name} is not read ${where}`
    : names > 1 || name.endsWith('[]') || Array.isArray(value)
      ? 'dryRun must be given once'
      : name !== 'dryRun'
        ? `the parameter is spelled dryRun, not ${name}`
        : `dryRun must be '${DRY_RUN_ALL}', got '${String(value).slice(0, 64)}'`;
  const message = `${why} (dryRun=${DRY_RUN_ALL} previews the deletion): nothing was deleted`;
  return new ValidationFailed(message, [
    { field: 'dryRun', ...(typeof value === 'string' && { value: value.slice(0, 64) }), constraint: 'enum', message },
  ]);
}
