import { EvaluationError, ParseError, type Environment } from '@marcbachmann/cel-js';
import { celCompare, celEquals } from './cel-compare.js';
import type {
  CelAstNode,
  CelMacro,
  CelTypeDecl,
  MacroChecker,
  MacroContext,
  MacroEvaluator,
  MacroExpansion,
  MacroOverlayContext,
} from './cel-macro.types.js';

/**
 * cel-go's `ext.Lists()`, which cel-js 8 lacks entirely, with cel-go's semantics:
 * `distinct()`, `sort()`, `sortBy(e, key)` (a macro), `slice(start, end)`, `flatten()` (one level),
 * `flatten(depth)`, `lists.range(n)`.
 * @see HyperFleet: hyperfleet-adapter docs/conventions/cel.md (ext.Lists()).
 */
export function registerListsExtension(env: Environment): void {
  env
    .registerType('ListsNamespace', ListsNamespace)
    // `lists` is a namespace constant, so `lists` cannot also be a variable name.
    .registerConstant('lists', 'ListsNamespace', new ListsNamespace())
    .registerFunction('ListsNamespace.range(int): list<int>', (_ns: ListsNamespace, n: bigint) => range(n))
    .registerFunction('list<A>.distinct(): list<A>', distinct)
    .registerFunction('list<A>.sort(): list<A>', sort)
    .registerFunction('list<A>.slice(int, int): list<A>', slice)
    .registerFunction('list.flatten(): list', (items: unknown[]) => flatten(items, 1n))
    .registerFunction('list.flatten(int): list', flatten)
    .registerFunction('list.sortBy(ast, ast): list', sortByMacro);
}

/** Receiver of `lists.range(...)`; carries no state. */
class ListsNamespace {}

function range(n: bigint): bigint[] {
  const out: bigint[] = [];
  for (let i = 0n; i < n; i += 1n) out.push(i);
  return out;
}

/** Keeps the first of each group of equal elements (CEL equality: `[1, 1.0, 1u].distinct()` is `[1]`). */
function distinct(items: unknown[]): unknown[] {
  const out: unknown[] = [];
  for (const item of items) if (!out.some((seen) => celEquals(seen, item))) out.push(item);
  return out;
}

/** Sorts a copy; every element must be orderable and of one type (as cel-go requires). */
function sort(items: unknown[]): unknown[] {
  for (const item of items) celCompare(items[0], item);
  return [...items].sort(celCompare);
}

function slice(items: unknown[], start: bigint, end: bigint): unknown[] {
  if (start < 0n || end < 0n) throw new EvaluationError(`cannot slice(${start}, ${end}), negative indexes not supported`);
  if (start > end) {
    throw new EvaluationError(`cannot slice(${start}, ${end}), start index must be less than or equal to end index`);
  }
  if (BigInt(items.length) < end) throw new EvaluationError(`cannot slice(${start}, ${end}), list is length ${items.length}`);
  return items.slice(Number(start), Number(end));
}

function flatten(items: unknown[], depth: bigint): unknown[] {
  if (depth < 0n) throw new EvaluationError('flatten(): level must be non-negative');
  const out: unknown[] = [];
  for (const item of items) {
    if (Array.isArray(item) && depth > 0n) out.push(...flatten(item, depth - 1n));
    else out.push(item);
  }
  return out;
}

interface SortByMacro extends CelMacro {
  readonly receiver: CelAstNode;
  readonly iterVar: string;
  readonly keyExpr: CelAstNode;
  /** The iteration variable's scope, made by typeCheck (compile time) and re-parented per evaluation. */
  iterCtx?: MacroOverlayContext;
}

/** `list.sortBy(e, key)`: stable sort by `key` evaluated with `e` bound to each element. */
function sortByMacro({ args, receiver, ast }: MacroExpansion): SortByMacro {
  const [iterVar, keyExpr] = args as [CelAstNode, CelAstNode];
  if (iterVar.op !== 'id' || typeof iterVar.args !== 'string') {
    throw new ParseError({ message: 'sortBy(var, key): the first argument must be a variable name', range: iterVar });
  }
  return {
    receiver: receiver ?? ast,
    iterVar: iterVar.args,
    keyExpr,
    async: false,
    typeCheck: sortByTypeCheck,
    evaluate: sortByEvaluate,
  };
}

function sortByTypeCheck(checker: MacroChecker, macro: SortByMacro, ctx: MacroContext): CelTypeDecl {
  const listType = checker.check(macro.receiver, ctx);
  if (listType.kind !== 'list' && listType.kind !== 'dyn') {
    throw checker.createError('invalid_argument', `sortBy() needs a list, got '${listType.type}'`, macro.receiver);
  }
  const elementType = listType.kind === 'list' && listType.valueType ? listType.valueType : checker.getType('dyn');
  macro.iterCtx = ctx.forkWithVariable(macro.iterVar, elementType);
  checker.check(macro.keyExpr, macro.iterCtx);
  return listType.kind === 'list' ? listType : checker.getType('list<dyn>');
}

function sortByEvaluate(evaluator: MacroEvaluator, macro: SortByMacro, ctx: MacroContext): unknown[] {
  const items = evaluator.run(macro.receiver, ctx);
  if (!Array.isArray(items)) throw new EvaluationError('sortBy() needs a list');
  const scope = macro.iterCtx!;
  const keyed = items.map((item: unknown) => ({
    item,
    key: evaluator.run(macro.keyExpr, scope.reuse(ctx).setIterValue(item, evaluator)),
  }));
  for (const { key } of keyed) celCompare(keyed[0]!.key, key);
  // Array.prototype.sort is stable, as cel-go's sortBy is.
  return keyed.sort((a, b) => celCompare(a.key, b.key)).map(({ item }) => item);
}
