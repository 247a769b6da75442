/**
 * Rewrites `?` placeholders to PostgreSQL's `$1..$n`, left to right.
 * Naive on purpose (no SQL tokenizer): every `?` counts, so none may appear in literals or comments,
 * and PostgreSQL's JSON `?` operators cannot be used in read-model SQL.
 */
export function toPositionalPlaceholders(sql: string): string {
  let index = 0;
  return sql.replace(/\?/g, () => `$${(index += 1)}`);
}
