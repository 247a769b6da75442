/**
 * HyperFleet's `fields=` sparse fieldsets (hyperfleet-api `pkg/handlers/list_params.go`): keep only the named fields of
 * a JSON object, `id` always included. A dotted name (`status.conditions`) keeps that nested field inside its parents.
 * Names of fields the object does not have select nothing (HyperFleet omits absent fields too).
 */
export function parseFields(fields: string | undefined): string[][] | undefined {
  if (fields === undefined || fields.trim() === '') return undefined;
  const names = fields
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  return [['id'], ...names.map((n) => n.split('.'))];
}

/** `item` reduced to the selected paths; the item unchanged when `paths` is undefined. */
export function selectFields<T extends object>(item: T, paths: readonly string[][] | undefined): Partial<T> {
  if (!paths) return item;
  const out: Record<string, unknown> = {};
  for (const path of paths) copyPath(item as Record<string, unknown>, out, path);
  return out as Partial<T>;
}

function copyPath(from: Record<string, unknown>, to: Record<string, unknown>, path: readonly string[]): void {
  const [head, ...rest] = path;
  if (head === undefined || !Object.hasOwn(from, head)) return;
  const value = from[head];
  if (rest.length === 0) {
    to[head] = value;
    return;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
  const existing = to[head];
  const target = existing !== null && typeof existing === 'object' && !Array.isArray(existing) ? (existing as Record<string, unknown>) : {};
  to[head] = target;
  copyPath(value as Record<string, unknown>, target, rest);
}
