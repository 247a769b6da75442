/** Errors of the template engine, positioned like a compiler's: 1-based line and column in the source. */

/** The template source could not be parsed. `reason` is Go's wording where Go has one. */
export class TemplateSyntaxError extends Error {
  override readonly name = 'TemplateSyntaxError';
  constructor(
    readonly reason: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`template:${line}:${column}: ${reason}`);
  }
}

/**
 * Rendering failed (Go's `ExecError`): a missing map key under `missingkey=error`, a wrong argument
 * type, a failing function... `context` is the node being evaluated, rendered like Go's `at <...>`.
 */
export class TemplateExecError extends Error {
  override readonly name = 'TemplateExecError';
  constructor(
    readonly reason: string,
    readonly line: number,
    readonly column: number,
    readonly context: string,
  ) {
    super(`template:${line}:${column}: executing at <${context}>: ${reason}`);
  }
}

/** 1-based line and column (in code points) of a UTF-16 `offset` within `source`. */
export function lineColumn(source: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = source.indexOf('\n'); i !== -1 && i < offset; i = source.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: [...source.slice(lineStart, offset)].length + 1 };
}
