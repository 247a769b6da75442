/**
 * A flat diff of two JSON values: the leaf paths whose values differ (`status.conditions[Reconciled].status`).
 * Arrays of objects with a `type` key (conditions) are keyed by it so a reorder is not a change. Small on
 * purpose: the replay compares two resource states, not arbitrary documents.
 */
export interface Change {
  readonly path: string;
  readonly before?: string;
  readonly after?: string;
}

function flatten(value: unknown, path: string, out: Map<string, string>): void {
  if (Array.isArray(value)) {
    if (value.length === 0) out.set(path, '[]');
    value.forEach((item, i) => {
      const key =
        item && typeof item === 'object' && typeof (item as { type?: unknown }).type === 'string'
          ? (item as { type: string }).type
          : String(i);
      flatten(item, `${path}[${key}]`, out);
    });
  } else if (value && typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 0) out.set(path, '{}');
    for (const [k, v] of entries) flatten(v, path ? `${path}.${k}` : k, out);
  } else {
    out.set(path, JSON.stringify(value));
  }
}

export function diff(before: unknown, after: unknown): Change[] {
  const a = new Map<string, string>();
  const b = new Map<string, string>();
  if (before !== undefined) flatten(before, '', a);
  if (after !== undefined) flatten(after, '', b);
  const paths = [...new Set([...a.keys(), ...b.keys()])].sort();
  return paths
    .filter((p) => a.get(p) !== b.get(p))
    .map((path) => ({ path, ...(a.has(path) ? { before: a.get(path)! } : {}), ...(b.has(path) ? { after: b.get(path)! } : {}) }));
}
