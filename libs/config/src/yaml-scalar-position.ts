import type { Scalar } from 'yaml';

/** A 1-based line and column in a file. */
export interface LineColumn {
  readonly line: number;
  readonly column: number;
}

/**
 * Maps a 1-based line/column inside a YAML scalar's *value* (where a CEL or template parser stopped) to
 * the position in the file, so config errors point into the file the way a compiler would. `start` is the
 * scalar's own position in the file. Exact for single-line plain/quoted scalars and for `|` block
 * literals; continuation lines of folded (`>`) or multi-line flow scalars are approximated (the line is
 * right, the column assumes the block's indentation). Shared by the entities config (condition rules) and
 * the adapter task configs.
 */
export function positionInScalarValue(text: string, node: Scalar, start: LineColumn, line: number, column: number): LineColumn {
  const startOffset = node.range?.[0];
  if ((node.type === 'BLOCK_LITERAL' || node.type === 'BLOCK_FOLDED') && startOffset !== undefined) {
    // A block's content starts on the line after its indicator, at the block's indentation.
    return { line: start.line + line, column: blockIndent(text, startOffset) + column };
  }
  const quoted = node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE' ? 1 : 0;
  if (line <= 1) return { line: start.line, column: start.column + quoted + column - 1 };
  return { line: start.line + line - 1, column: start.column + column - 1 };
}

/** Indentation (spaces) of the first non-blank content line of the block scalar starting at `offset`. */
function blockIndent(text: string, offset: number): number {
  let i = text.indexOf('\n', offset);
  while (i !== -1 && i < text.length) {
    const lineStart = i + 1;
    let j = lineStart;
    while (text[j] === ' ') j += 1;
    if (text[j] !== '\n' && text[j] !== '\r') return j - lineStart;
    i = text.indexOf('\n', lineStart);
  }
  return 0;
}
