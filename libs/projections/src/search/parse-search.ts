import { SearchSyntaxError } from './search-errors.js';
import type { TslExpr } from './tsl-ast.js';
import { parse, SyntaxError as PeggySyntaxError } from './tsl-parser.generated.js';

/** HyperFleet's limit on the `search` parameter (contract §1.6), in characters. */
export const MAX_SEARCH_LENGTH = 4096;

/**
 * Parses a TSL search expression (grammar: tsl.peggy).
 * @throws SearchSyntaxError when longer than 4096 characters or not valid TSL (message names the column).
 */
export function parseSearch(search: string): TslExpr {
  if (search.length > MAX_SEARCH_LENGTH) {
    throw new SearchSyntaxError(`search is ${search.length} characters long; at most ${MAX_SEARCH_LENGTH} are allowed`, search);
  }
  try {
    return parse(search, {}) as TslExpr;
  } catch (error) {
    if (error instanceof PeggySyntaxError) {
      const column = (error as { location?: { start?: { column?: number } } }).location?.start?.column;
      throw new SearchSyntaxError(`invalid search at column ${column ?? '?'}: ${error.message}`, search, column);
    }
    throw error;
  }
}
