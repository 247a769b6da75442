/**
 * TSL search for list endpoints (hyperfleet-api `docs/search.md`): parse (peggy grammar tsl.peggy) and compile to a
 * parameterized SQL condition on the read model's dialect.
 */
export { parseSearch, MAX_SEARCH_LENGTH } from './parse-search.js';
export { compileSearch, type SqlDialect, type SqlCondition } from './search-sql.js';
export { RESOURCE_SEARCH, STATUS_SEARCH, CONDITION_SUBFIELDS, describeFields, type SearchSchema } from './search-fields.js';
export { SearchSyntaxError, SearchFieldError } from './search-errors.js';
export type { TslExpr, TslLiteral } from './tsl-ast.js';

import { parseSearch } from './parse-search.js';
import { compileSearch, type SqlCondition, type SqlDialect } from './search-sql.js';
import type { SearchSchema } from './search-fields.js';

/**
 * Parses and compiles a `search` parameter; undefined for an absent or blank one.
 * @throws SearchSyntaxError (→ 400 HYPERFLEET-VAL-005), SearchFieldError (→ 400 HYPERFLEET-VAL-005)
 */
export function searchCondition(search: string | undefined, schema: SearchSchema, dialect: SqlDialect): SqlCondition | undefined {
  if (search === undefined || search.trim() === '') return undefined;
  return compileSearch(parseSearch(search), schema, dialect, search);
}
