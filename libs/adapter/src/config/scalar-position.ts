import type { Node, Scalar } from 'yaml';
import type { FilePosition, YamlSource } from './yaml-reader.js';

/** 1-based line/column of `offset` inside `text`. */
export function lineColumnAt(text: string, offset: number): FilePosition {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i += 1) {
    if (text[i] === '\n') {
      line += 1;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/**
 * Maps a 1-based line/column inside a scalar's *value* (e.g. where a CEL parser or template
 * parser stopped) to the position in the YAML file, so errors point into the config the way a
 * compiler would. Exact for single-line plain/quoted scalars and for `|` block literals;
 * continuation lines of folded (`>`) or multi-line flow scalars are approximated (the line is
 * right, the column assumes the block's indentation).
 */
export function positionInScalar(source: YamlSource, node: Node, line: number, column: number): FilePosition {
  const start = source.nodePosition(node);
  const type = (node as Scalar).type;
  const startOffset = node.range?.[0];
  if ((type === 'BLOCK_LITERAL' || type === 'BLOCK_FOLDED') && startOffset !== undefined) {
    const indent = blockIndent(source.text, startOffset);
    return { line: start.line + line, column: indent + column };
  }
  const quoted = type === 'QUOTE_DOUBLE' || type === 'QUOTE_SINGLE' ? 1 : 0;
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

/** Position in the file of character `offset` of a scalar's value. */
export function offsetInScalar(source: YamlSource, node: Node, value: string, offset: number): FilePosition {
  const { line, column } = lineColumnAt(value, offset);
  return positionInScalar(source, node, line, column);
}
