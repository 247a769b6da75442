import type { CelMacro, MacroChecker, MacroContext } from './cel-macro.types.js';

/** The time source of one evaluation (`CelOptions.now`); the system clock when none is given. */
export type Clock = () => Date;

/**
 * Activation key under which an evaluation carries its clock. Not a CEL identifier (`@` cannot
 * start one), so no expression can read or shadow it; clock-reading functions get it from the
 * evaluation context, which keeps one compiled expression safe to evaluate with different clocks.
 */
export const CLOCK_KEY = '@clock';

/** The clock of the evaluation that `ctx` belongs to. */
export function readClock(ctx: MacroContext): Clock {
  const clock = ctx.getValue(CLOCK_KEY);
  if (typeof clock !== 'function') throw new Error('CEL activation has no clock (evaluate through compileCel)');
  return clock as Clock;
}

/** Go's `time.Now().Format(time.RFC3339)` in UTC: whole seconds, `Z` suffix (`2026-01-02T03:04:05Z`). */
export function formatRfc3339Seconds(at: Date): string {
  return at.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * `now()` → the evaluation clock's time as an RFC 3339 string (HyperFleet returns a string, so
 * expressions write `timestamp(now())`). A zero-argument function cannot be a cel-js macro (macros
 * are recognised by their `ast` parameters) and a plain function cannot see the evaluation
 * context, so ast-hooks.ts attaches this macro to each `now()` call node after parsing.
 */
export const nowMacro: CelMacro = {
  async: false,
  typeCheck: (checker: MacroChecker) => checker.getType('string'),
  evaluate: (_evaluator, _macro, ctx) => formatRfc3339Seconds(readClock(ctx)()),
};
