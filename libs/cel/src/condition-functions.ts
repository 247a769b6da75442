import { EvaluationError, type Environment } from '@marcbachmann/cel-js';
import { readClock } from './activation-clock.js';
import type { CelAstNode, CelMacro, CelTypeDecl, MacroChecker, MacroContext, MacroEvaluator, MacroExpansion } from './cel-macro.types.js';
import { mapGet } from './map-access.js';

/**
 * HyperFleet's condition helpers over `[{ type, status, reason?, message?, last_transition_time? }]`:
 * - `conditionStatus(conditions, type)` → the first matching condition's `status` (`"True"`, `"False"`, …),
 *   `"Unknown"` when there is no such condition (or `conditions` is null).
 * - `conditionAge(conditions, type)` → whole seconds since its `last_transition_time` (Kubernetes'
 *   `lastTransitionTime` is accepted too), `-1` when there is no such condition or time.
 * - `stableFor(conditions, type, seconds)` → status is `"True"` and age ≥ `seconds`.
 * The two time-based ones read the evaluation's clock, so they are cel-js macros: a macro's
 * `evaluate` sees the evaluation context (see activation-clock.ts); plain functions do not.
 * @throws EvaluationError when `conditions` is neither a list nor null, or a time does not parse.
 * @see HyperFleet: hyperfleet-adapter docs/conventions/cel.md.
 */
export function registerConditionFunctions(env: Environment): void {
  env
    .registerFunction('conditionStatus(dyn, string): string', conditionStatus)
    .registerFunction('conditionAge(ast, ast): int', (expansion: MacroExpansion) =>
      timedMacro(expansion, 'conditionAge', 'int', (conditions, type, now) => conditionAge(conditions, type, now)),
    )
    .registerFunction('stableFor(ast, ast, ast): bool', (expansion: MacroExpansion) =>
      timedMacro(expansion, 'stableFor', 'bool', (conditions, type, now, seconds) => {
        if (typeof seconds !== 'bigint' && typeof seconds !== 'number') {
          throw new EvaluationError('stableFor(): seconds must be a number');
        }
        const age = conditionAge(conditions, type, now);
        return conditionStatus(conditions, type) === 'True' && age >= 0n && Number(age) >= Number(seconds);
      }),
    );
}

function findCondition(conditions: unknown, type: string, fn: string): unknown {
  if (conditions === null || conditions === undefined) return undefined;
  if (!Array.isArray(conditions)) throw new EvaluationError(`${fn}(): conditions must be a list`);
  return conditions.find((c) => mapGet(c, 'type') === type);
}

function conditionStatus(conditions: unknown, type: string): string {
  const status = mapGet(findCondition(conditions, type, 'conditionStatus'), 'status');
  return typeof status === 'string' ? status : 'Unknown';
}

function conditionAge(conditions: unknown, type: string, now: Date): bigint {
  const condition = findCondition(conditions, type, 'conditionAge');
  const raw = mapGet(condition, 'last_transition_time') ?? mapGet(condition, 'lastTransitionTime');
  if (raw === undefined || raw === null || raw === '') return -1n;
  const at = raw instanceof Date ? raw : typeof raw === 'string' ? new Date(raw) : undefined;
  if (!at || Number.isNaN(at.getTime())) {
    throw new EvaluationError(`conditionAge(): invalid last_transition_time ${JSON.stringify(raw)}`);
  }
  // Go's int64(time.Since(t).Seconds()): truncates toward zero.
  return BigInt(Math.trunc((now.getTime() - at.getTime()) / 1000));
}

type TimedImpl = (conditions: unknown, type: string, now: Date, ...rest: unknown[]) => unknown;

interface TimedMacro extends CelMacro {
  readonly fn: string;
  readonly args: readonly CelAstNode[];
}

/**
 * A function over (conditions, type, ...rest) that also needs the evaluation's clock, packaged as a
 * cel-js macro: arguments are type-checked against (list|dyn, string|dyn, int|double|dyn) and
 * evaluated eagerly, then `impl` runs with `now` from the evaluation's clock.
 */
function timedMacro(expansion: MacroExpansion, fn: string, returnType: 'int' | 'bool', impl: TimedImpl): TimedMacro {
  return {
    fn,
    args: expansion.args,
    async: false,
    typeCheck(checker: MacroChecker, macro: TimedMacro, ctx: MacroContext): CelTypeDecl {
      const allowed = [['list', 'null'], ['string'], ['int', 'double']];
      macro.args.forEach((arg, i) => expectArgType(checker, ctx, arg, fn, allowed[i]!));
      return checker.getType(returnType);
    },
    evaluate(evaluator: MacroEvaluator, macro: TimedMacro, ctx: MacroContext): unknown {
      const [conditions, type, ...rest] = macro.args.map((arg) => evaluator.run(arg, ctx));
      if (typeof type !== 'string') throw new EvaluationError(`${fn}(): condition type must be a string`);
      return impl(conditions, type, readClock(ctx)(), ...rest);
    },
  };
}

function expectArgType(checker: MacroChecker, ctx: MacroContext, node: CelAstNode, fn: string, allowed: readonly string[]): void {
  const type = checker.check(node, ctx);
  if (type.kind === 'dyn' || allowed.includes(type.type)) return;
  throw checker.createError('no_matching_overload', `found no matching overload for '${fn}' with an argument of type '${type.type}'`, node);
}
