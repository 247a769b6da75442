/**
 * Tenancy of resources and callers (HyperFleet's tenancy): a map of tenant dimension key → value
 * (e.g. `{ org: "acme", project: "web" }`). A resource records the tenancy of its creator (children inherit
 * their parent's); a caller sees a resource when the resource's tenancy *contains* the caller's (every
 * caller dimension present with the same value). `null` = unscoped (tenants off, or a system caller).
 */
export type Tenancy = Readonly<Record<string, string>>;

/** True when `caller` (null = unscoped) may see a resource of tenancy `resource` (absent = untenanted). */
export function tenancyContains(resource: Tenancy | null | undefined, caller: Tenancy | null | undefined): boolean {
  if (!caller) return true;
  return Object.entries(caller).every(([key, value]) => resource?.[key] === value);
}

/**
 * The tenant slot of a name-reservation key: `key=value` pairs sorted by key, joined by `,`; undefined
 * for no tenancy. Values are `[A-Za-z0-9._-]` and keys identifiers, so the key is unambiguous.
 */
export function tenancyKey(tenancy: Tenancy | null | undefined): string | undefined {
  const entries = Object.entries(tenancy ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return entries.length === 0 ? undefined : entries.map(([k, v]) => `${k}=${v}`).join(',');
}
