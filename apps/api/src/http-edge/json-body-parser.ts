/**
 * The only request-body parser: JSON (`application/json` and `application/*+json`), with prototype
 * poisoning keys dropped (secure-json-parse) and a nesting limit, so a hostile body gets a 400 problem
 * instead of a stack overflow deeper in validation. Every other content type is answered 415.
 */
import sjson from 'secure-json-parse';
import { Problems } from '../problem-details/problem.js';

/** Deepest object/array nesting accepted in a body (a resource spec is a few levels deep). */
export const MAX_BODY_DEPTH = 64;

export const JSON_CONTENT_TYPE = /^application\/([\w.+-]+\+)?json(\s*;.*)?$/i;

/** @throws HttpProblem 400 (malformed or too deeply nested JSON). */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = sjson.parse(text, undefined, { protoAction: 'remove', constructorAction: 'remove' });
  } catch (error) {
    throw Problems.malformed(`body is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (depthExceeds(value, MAX_BODY_DEPTH)) {
    throw Problems.malformed(`body nests deeper than ${MAX_BODY_DEPTH} levels`);
  }
  return value;
}

/** Iterative (not recursive) so the check itself cannot overflow the stack. */
function depthExceeds(root: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[root, 1]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Object.values(value as object)) stack.push([child, depth + 1]);
  }
  return false;
}
