/**
 * Errors of the CEL environment. Both carry the expression text and a `reason` without position
 * decoration, so the config loader can compose compiler-style messages
 * (`tasks.yaml:42:7 resources[2].lifecycle.delete.when: <reason>`).
 */

/**
 * The expression does not parse, or fails the static check (unknown function, wrong arity,
 * `has()` on something that is not a field selection, ternary branches of different types).
 * `line`/`column` are 1-based and relative to the expression text (columns count UTF-16 code
 * units, as JS string offsets and the `yaml` library do); add the scalar's YAML position to them.
 */
export class CelCompileError extends Error {
  override readonly name = 'CelCompileError';

  constructor(
    readonly reason: string,
    readonly expression: string,
    readonly line: number,
    readonly column: number,
    options?: { cause?: unknown },
  ) {
    super(`${reason} (at ${line}:${column} in ${JSON.stringify(expression)})`, options);
  }
}

/**
 * Evaluation failed: a missing key (`No such key: clusterJob`), an unknown variable, no overload
 * for the runtime types (`no such overload: string + int`), a division by zero, a bad argument to
 * a custom function. Thrown, never swallowed: the executor decides what a failure means (P9).
 */
export class CelEvalError extends Error {
  override readonly name = 'CelEvalError';

  constructor(
    readonly reason: string,
    readonly expression: string,
    /** Where in the expression it failed (1-based), when the engine knows. */
    readonly position?: { readonly line: number; readonly column: number },
    options?: { cause?: unknown },
  ) {
    const at = position ? ` at ${position.line}:${position.column}` : '';
    super(`${reason}${at} (evaluating ${JSON.stringify(expression)})`, options);
  }
}

/** 1-based line and column of `offset` inside `text`. */
export function positionAt(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(Math.max(offset, 0), text.length);
  for (let i = 0; i < end; i += 1) {
    if (text[i] === '\n') {
      line += 1;
      lineStart = i + 1;
    }
  }
  return { line, column: end - lineStart + 1 };
}
