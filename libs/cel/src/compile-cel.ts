import { EvaluationError, ParseError, TypeError as CelTypeError, type ParseResult } from '@marcbachmann/cel-js';
import { CLOCK_KEY, type Clock } from './activation-clock.js';
import { installAstHooks } from './ast-hooks.js';
import { createCelEnvironment, reservedNames } from './cel-environment.js';
import { CelCompileError, CelEvalError, positionAt } from './cel-errors.js';
import type { CelAstNode } from './cel-macro.types.js';
import { fromCelValue, toCelValue } from './cel-values.js';

/** Per-evaluation options. `now` is the clock behind `now()`, `conditionAge()` and `stableFor()`; default: system time. */
export interface CelOptions {
  now?: () => Date;
}

/** An expression parsed and checked once, evaluated many times. */
export interface CompiledCel {
  /** The expression text as given. */
  readonly source: string;
  /**
   * Evaluates against `vars` (JSON-ish values, `Date` for timestamps; see cel-values.ts for the
   * conversions in and out). Does not modify `vars`.
   * A variable named like a CEL built-in (`int`, `uint`, `double`, `bool`, `string`, `bytes`, `list`,
   *   `map`, `type`, `null_type`, `optional`, `cel`, `google`, `strings`, `lists`) is left out: the
   *   name keeps meaning the built-in.
   * @throws CelEvalError on any evaluation failure.
   */
  evaluate(vars: Readonly<Record<string, unknown>>, options?: CelOptions): unknown;
}

// Immutable after construction (createCelEnvironment locks it), hence safe to share.
const environment = createCelEnvironment();
const reserved = reservedNames(environment);
const systemClock: Clock = () => new Date();

/**
 * Parses and statically checks `expression` in HyperFleet's CEL environment (every variable `dyn`).
 * The check rejects only what must fail at run time anyway: unknown functions, wrong arity,
 * `has()` without a field selection, ternary branches of different static types.
 * @throws CelCompileError with the 1-based line/column inside `expression`.
 * @see HyperFleet: hyperfleet-adapter docs/conventions/cel.md; seeds/000 "Example Task Config with Deletion".
 */
export function compileCel(expression: string): CompiledCel {
  let parsed: ParseResult;
  try {
    parsed = environment.parse(expression);
  } catch (error) {
    throw toCompileError(error, expression);
  }
  installAstHooks(parsed.ast as unknown as CelAstNode);
  const checked = parsed.check();
  if (!checked.valid) throw toCompileError(checked.error, expression);
  const referenced = referencedNames(parsed.ast);
  return {
    source: expression,
    evaluate: (vars, options) => evaluateParsed(parsed, expression, vars, options, referenced),
  };
}

/**
 * Every identifier the expression names anywhere (variables, comprehension variables, `cel`), an
 * over-approximation of the variables it can read: CEL has no lookup of a variable by a computed name,
 * and the only activation entry a macro reads by key is the clock (activation-clock.ts), always given.
 */
function referencedNames(ast: unknown): ReadonlySet<string> {
  const names = new Set<string>();
  const walk = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach(walk);
    const op = (node as { op?: unknown }).op;
    if (typeof op !== 'string') return Object.values(node).forEach(walk);
    const args = (node as { args?: unknown }).args;
    if (op === 'id' && typeof args === 'string') names.add(args);
    walk(args);
  };
  walk(ast);
  return names;
}

/** Compiles and evaluates once. Prefer `compileCel` for expressions evaluated repeatedly. */
export function evaluateCel(expression: string, vars: Readonly<Record<string, unknown>>, options?: CelOptions): unknown {
  return compileCel(expression).evaluate(vars, options);
}

function evaluateParsed(
  parsed: ParseResult,
  expression: string,
  vars: Readonly<Record<string, unknown>>,
  options: CelOptions | undefined,
  referenced: ReadonlySet<string>,
): unknown {
  const activation: Record<string, unknown> = { [CLOCK_KEY]: options?.now ?? systemClock };
  for (const name of referenced) {
    if (!Object.prototype.propertyIsEnumerable.call(vars, name)) continue;
    const value = vars[name];
    // A variable named like a built-in (`type`, `string`, ...) cannot be referenced (the name means the
    // built-in) and cel-js refuses to shadow it: leave it out so other expressions still evaluate.
    if (reserved.has(name)) continue;
    try {
      const converted = toCelValue(value, name);
      if (converted !== undefined) activation[name] = converted;
    } catch (error) {
      throw new CelEvalError(error instanceof Error ? error.message : String(error), expression, undefined, { cause: error });
    }
  }
  let result: unknown;
  try {
    result = parsed(activation);
  } catch (error) {
    throw toEvalError(error, expression);
  }
  return fromCelValue(result);
}

function toCompileError(error: unknown, expression: string): CelCompileError {
  if (error instanceof ParseError || error instanceof CelTypeError || error instanceof EvaluationError) {
    const { line, column } = positionAt(expression, error.range?.start ?? 0);
    return new CelCompileError(error.summary, expression, line, column, { cause: error });
  }
  const reason = error instanceof Error ? error.message : String(error);
  return new CelCompileError(reason, expression, 1, 1, { cause: error });
}

function toEvalError(error: unknown, expression: string): CelEvalError {
  if (error instanceof EvaluationError || error instanceof CelTypeError) {
    const position = error.range ? positionAt(expression, error.range.start) : undefined;
    return new CelEvalError(error.summary, expression, position, { cause: error });
  }
  const reason = error instanceof Error ? error.message : String(error);
  return new CelEvalError(reason, expression, undefined, { cause: error });
}
