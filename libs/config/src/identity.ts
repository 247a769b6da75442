/**
 * What a caller's identity may look like (role lists, `DECOM_ADMINS`, token claims): kept apart from the YAML
 * readers so a client command that reads only the environment loads nothing else.
 */

/** Longest identity (characters) a caller may have. */
export const IDENTITY_MAX = 256;

/** Identities are 1..256 printable ASCII characters (no control characters, no mojibake). */
export function isValidIdentity(value: string): boolean {
  return value.length > 0 && value.length <= IDENTITY_MAX && /^[\x20-\x7e]+$/.test(value);
}

/**
 * Why `value` is not in canonical form, or undefined when it is: no leading or trailing whitespace, and an
 * e-mail-like identity (one with `@`) in lower case. Look-alikes (`" admin@x.test"`, `ADMIN@x.test`) are
 * refused rather than folded: folding would let them match a role, keeping them would put a second
 * spelling of one person in the audit trail.
 */
export function nonCanonicalIdentity(value: string): string | undefined {
  if (value !== value.trim()) return 'identity has leading or trailing whitespace';
  if (value.includes('@') && value !== value.toLowerCase()) return 'e-mail identity is not lower-case';
  return undefined;
}
