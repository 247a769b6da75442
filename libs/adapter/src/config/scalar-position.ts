import type { Node, Scalar } from 'yaml';
import { positionInScalarValue } from '@decom/config';
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

/** Position in the file of (line, column) inside a scalar's value (see `positionInScalarValue`). */
export function positionInScalar(source: YamlSource, node: Node, line: number, column: number): FilePosition {
  return positionInScalarValue(source.text, node as Scalar, source.nodePosition(node), line, column);
}

/** Position in the file of character `offset` of a scalar's value. */
export function offsetInScalar(source: YamlSource, node: Node, value: string, offset: number): FilePosition {
  const { line, column } = lineColumnAt(value, offset);
  return positionInScalar(source, node, line, column);
}
