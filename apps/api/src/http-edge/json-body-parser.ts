/**
 * The only request-body parser: JSON (`application/json` and `application/*+json`), decoded as strict
 * UTF-8 (invalid bytes are refused, never turned into U+FFFD), with prototype-poisoning keys refused
 * (secure-json-parse detects them; the 400 names the field), duplicate keys refused (the 400 names the key:
 * `{"name":"a","name":"b"}` would otherwise create `b` while a reviewer reads `a`) and a nesting limit, so a
 * hostile body gets a 400 problem instead of a stack overflow deeper in validation. Nothing in a body is
 * silently altered.
 * Every other content type is answered 415.
 */
import sjson from 'secure-json-parse';
import { Problems } from '../problem-details/problem.js';

/** Deepest object/array nesting accepted in a body (a resource spec is a few levels deep). */
export const MAX_BODY_DEPTH = 64;

export const JSON_CONTENT_TYPE = /^application\/([\w.+-]+\+)?json(\s*;.*)?$/i;

/**
 * @throws HttpProblem 400 (not UTF-8, malformed JSON, a `__proto__` / `constructor.prototype` key, too deep,
 *   a key twice in one object).
 */
export function parseJsonBody(body: Buffer | string): unknown {
  const text = typeof body === 'string' ? body : decodeUtf8(body);
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = sjson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (error) {
    const poisoned = poisonedField(text);
    if (poisoned) {
      throw Problems.validation(`body field ${poisoned} is not allowed: "__proto__" and "constructor.prototype" keys could alter objects`, [
        { field: poisoned, constraint: 'format', message: `${poisoned} is not allowed as a key` },
      ]);
    }
    throw Problems.malformed(`body is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (depthExceeds(value, MAX_BODY_DEPTH)) {
    throw Problems.malformed(`body nests deeper than ${MAX_BODY_DEPTH} levels`);
  }
  const duplicate = duplicateKey(text);
  if (duplicate !== undefined) {
    throw Problems.validation(`body field ${duplicate} appears more than once: duplicate JSON keys are refused`, [
      { field: duplicate, constraint: 'format', message: `${duplicate} appears more than once` },
    ]);
  }
  return value;
}

function decodeUtf8(bytes: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw Problems.malformed('body is not valid UTF-8');
  }
}

/**
 * Path of the first prototype-poisoning key (`spec.__proto__`, `a.constructor.prototype`), read from a
 * plain `JSON.parse` (which keeps `__proto__` as an own key); undefined when the text is not JSON at all.
 */
function poisonedField(text: string): string | undefined {
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch {
    return undefined;
  }
  const stack: [unknown, string][] = [[root, '']];
  while (stack.length > 0) {
    const [value, path] = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    for (const [key, child] of Object.entries(value as object)) {
      const field = Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
      if (key === '__proto__') return field;
      if (key === 'constructor' && child !== null && typeof child === 'object' && Object.hasOwn(child, 'prototype'))
        return `${field}.prototype`;
      stack.push([child, field]);
    }
  }
  return undefined;
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

/**
 * Path of the first key that appears twice in one object (`name`, `spec.labels.a`, `items[2].id`), or
 * undefined. `JSON.parse` keeps the last value without a word and secure-json-parse does not look (a
 * reviver sees only the surviving value), and no duplicate-detecting parser is among the dependencies, so
 * this scans the text, already known to be valid JSON, once: linear, iterative (no stack to overflow), keys
 * compared after unescaping (`"a"` and `"\u0061"` are one key).
 */
export function duplicateKey(text: string): string | undefined {
  /** An open object (`keys` set; `field` = path of its current key) or array (`keys` null; `index`). */
  interface Frame {
    readonly keys: Set<string> | null;
    readonly path: string;
    expectKey: boolean;
    field: string;
    index: number;
  }
  const stack: Frame[] = [];
  const open = (keys: Set<string> | null) => {
    const top = stack[stack.length - 1];
    const path = top === undefined ? '' : top.keys ? top.field : `${top.path}[${top.index}]`;
    stack.push({ keys, path, expectKey: keys !== null, field: path, index: 0 });
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      const start = i;
      let escaped = false;
      for (i++; text[i] !== '"'; i++) {
        if (text[i] === '\\') {
          escaped = true;
          i++;
        }
      }
      const top = stack[stack.length - 1];
      if (top?.keys && top.expectKey) {
        const key = escaped ? (JSON.parse(text.slice(start, i + 1)) as string) : text.slice(start + 1, i);
        const field = top.path ? `${top.path}.${key}` : key;
        if (top.keys.has(key)) return field;
        top.keys.add(key);
        top.expectKey = false;
        top.field = field;
      }
    } else if (c === '{') open(new Set());
    else if (c === '[') open(null);
    else if (c === '}' || c === ']') stack.pop();
    else if (c === ',') {
      const top = stack[stack.length - 1]!;
      if (top.keys) top.expectKey = true;
      else top.index += 1;
    }
  }
  return undefined;
}
