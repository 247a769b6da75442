import { SearchSyntaxError } from './search-errors.js';
import type { TslExpr } from './tsl-ast.js';
import { parse, SyntaxError as PeggySyntaxError } from './tsl-parser.generated.js';

/** HyperFleet's limit on the `search` parameter (hyperfleet-api `docs/search.md`), in characters. */
export const MAX_SEARCH_LENGTH = 4096;

/**
 * Deepest nesting a search may have: `not`s, parentheses and alternations of `and`/`or` (a chain of one operator,
 * `a and b and c`, counts once). Far above what a person writes, far below what the databases refuse (SQLite's
 * expression tree stops at 1000 levels) or the parser's recursion survives.
 */
export const MAX_SEARCH_DEPTH = 64;

/**
 * Parses a TSL search expression (grammar: tsl.peggy).
 * @throws SearchSyntaxError when longer than 4096 characters, nested deeper than 64 levels, or not valid TSL
 *   (message names the column).
 */
export function parseSearch(search: string): TslExpr {
  if (search.length > MAX_SEARCH_LENGTH) {
    throw new SearchSyntaxError(`search is ${search.length} characters long; at most ${MAX_SEARCH_LENGTH} are allowed`, search);
  }
  let expr: TslExpr;
  try {
    expr = parse(search, {}) as TslExpr;
  } catch (error) {
    // Thousands of nested parentheses exhaust the generated parser's recursion before any rule fails.
    if (error instanceof RangeError) throw tooDeep(search);
    if (error instanceof PeggySyntaxError) {
      const column = (error as { location?: { start?: { column?: number } } }).location?.start?.column;
      throw new SearchSyntaxError(`invalid search at column ${column ?? '?'}: ${error.message}`, search, column);
    }
    throw error;
  }
  if (nestingDepth(expr) > MAX_SEARCH_DEPTH) throw tooDeep(search);
  return expr;
}

function tooDeep(search: string): SearchSyntaxError {
  return new SearchSyntaxError(`search is nested more than ${MAX_SEARCH_DEPTH} levels deep (not, parentheses, and/or)`, search);
}

/** Nesting of `expr`; a run of one binary operator counts as one level, as SQL evaluates it. */
function nestingDepth(expr: TslExpr): number {
  if (expr.kind === 'not') return 1 + nestingDepth(expr.expr);
  if (expr.kind !== 'and' && expr.kind !== 'or') return 1;
  let deepest = 0;
  const pending: TslExpr[] = [expr];
  while (pending.length > 0) {
    const next = pending.pop()!;
    if (next.kind === expr.kind) pending.push(next.left, next.right);
    else deepest = Math.max(deepest, nestingDepth(next));
  }
  return 1 + deepest;
}
