/**
 * The nesting limit on decoded request bodies. kube-apiserver's JSON decoder stops at 10,000 levels
 * ("exceeded max depth", answered 400); this server walks objects recursively (merge patches, managed
 * fields, equality), which runs out of stack long before that, so it refuses at a depth no real manifest
 * reaches, with the same answer, instead of failing with a 500.
 */
export const MAX_NESTING_DEPTH = 500;

/**
 * Whether a decoded JSON/YAML value nests objects or arrays deeper than `limit` levels. Iterative, so a
 * hostile body cannot overflow the stack while being measured.
 */
export function nestsDeeperThan(value: unknown, limit: number = MAX_NESTING_DEPTH): boolean {
  const pending: { readonly value: unknown; readonly depth: number }[] = [{ value, depth: 0 }];
  while (pending.length > 0) {
    const { value: next, depth } = pending.pop()!;
    if (next === null || typeof next !== 'object') continue;
    if (depth + 1 > limit) return true;
    for (const child of Object.values(next)) pending.push({ value: child, depth: depth + 1 });
  }
  return false;
}
