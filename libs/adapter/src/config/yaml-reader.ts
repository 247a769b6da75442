import { isAlias, isMap, isScalar, isSeq, LineCounter, parseDocument, Scalar } from 'yaml';
import type { Document, Node, YAMLMap, YAMLSeq } from 'yaml';
import { type ConfigIssue, TaskConfigError } from './task-config-error.js';

/** 1-based position in the config file. */
export interface FilePosition {
  readonly line: number;
  readonly column: number;
}

/** Joins a field path: `joinPath('a', 'b')` → `a.b`, `joinPath('a', 2)` → `a[2]`. */
export function joinPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path ? `${path}.${key}` : key;
}

/**
 * A parsed YAML document plus an issue collector that turns node offsets into file positions.
 * Readers never throw on bad input: they record an issue and return `undefined`, so a single
 * load reports every problem at once (`throwIfIssues`).
 */
export class YamlSource {
  readonly issues: ConfigIssue[] = [];
  /** Problems that do not stop the load (printed by `adapter validate`, logged at start). */
  readonly warnings: ConfigIssue[] = [];
  readonly lineCounter = new LineCounter();
  readonly document: Document.Parsed;

  constructor(
    readonly file: string,
    readonly text: string,
  ) {
    this.document = parseDocument(text, { lineCounter: this.lineCounter, prettyErrors: false });
    for (const error of this.document.errors) {
      const pos = this.position(error.pos[0]);
      this.issues.push({ file, ...pos, path: '', message: error.message.split('\n')[0] ?? error.message });
    }
  }

  /** 1-based file position of a character offset. */
  position(offset: number): FilePosition {
    const { line, col } = this.lineCounter.linePos(offset);
    return { line, column: col };
  }

  /** Position of a node's first character, or the document start when unknown. */
  nodePosition(node: Node | null | undefined): FilePosition {
    const start = node?.range?.[0];
    return start === undefined ? { line: 1, column: 1 } : this.position(start);
  }

  report(at: Node | FilePosition | null | undefined, path: string, message: string): void {
    const pos = at && 'line' in at ? at : this.nodePosition(at as Node | null | undefined);
    this.issues.push({ file: this.file, line: pos.line, column: pos.column, path, message });
  }

  /** True when the text is not well-formed YAML (its syntax errors are among `issues`). */
  get isMalformed(): boolean {
    return this.document.errors.length > 0;
  }

  /** Records a warning (same positioning as `report`). */
  warn(at: Node | FilePosition | null | undefined, path: string, message: string): void {
    const pos = at && 'line' in at ? at : this.nodePosition(at as Node | null | undefined);
    this.warnings.push({ file: this.file, line: pos.line, column: pos.column, path, message });
  }

  throwIfIssues(): void {
    if (this.issues.length > 0) throw new TaskConfigError(this.issues, { unusable: this.isMalformed });
  }

  /** The root mapping, or `undefined` (with an issue) when the document is not a map. */
  rootMap(): MapReader | undefined {
    const root = this.document.contents;
    if (root === null || root === undefined) return new MapReader(this, undefined, '');
    if (!isMap(root)) {
      this.report(root, '', 'config must be a YAML mapping');
      return undefined;
    }
    return new MapReader(this, root, '');
  }
}

/** Human name of a node's YAML type, for "expected X, got Y" messages. */
function describe(node: Node | null | undefined): string {
  if (node === null || node === undefined) return 'nothing';
  if (isMap(node)) return 'a mapping';
  if (isSeq(node)) return 'a list';
  if (isAlias(node)) return 'an alias';
  const value = (node as Scalar).value;
  if (value === null) return 'null';
  return `a ${typeof value}`;
}

/**
 * Strict reader over one YAML mapping: every key read is remembered and `finish()` reports
 * the rest as unknown (HyperFleet decodes task configs strictly: hyperfleet-adapter `internal/configloader/types.go`).
 */
export class MapReader {
  private readonly seen = new Set<string>();

  constructor(
    readonly source: YamlSource,
    readonly node: YAMLMap | undefined,
    readonly path: string,
  ) {}

  keys(): string[] {
    return (this.node?.items ?? []).map((pair) => String(isScalar(pair.key) ? pair.key.value : pair.key));
  }

  has(key: string): boolean {
    return this.keys().includes(key);
  }

  /** The value node of `key` (marks the key as known). `null` values come back as a null Scalar. */
  valueNode(key: string): Node | undefined {
    this.seen.add(key);
    const pair = this.node?.items.find((p) => String(isScalar(p.key) ? p.key.value : p.key) === key);
    if (!pair) return undefined;
    const value = pair.value as Node | null;
    if (value === null) {
      // `key:` with nothing after it: give callers a positioned null scalar.
      const keyNode = pair.key as Node;
      const scalar = new Scalar(null);
      scalar.range = keyNode.range ?? null;
      return scalar;
    }
    if (isAlias(value)) {
      this.source.report(value, joinPath(this.path, key), 'YAML aliases are not supported in task configs');
      return undefined;
    }
    return value;
  }

  /** Position to blame for a missing key: the mapping itself. */
  get position(): FilePosition {
    return this.source.nodePosition(this.node);
  }

  private missing(key: string): void {
    this.source.report(this.node ? this.position : { line: 1, column: 1 }, joinPath(this.path, key), 'is required');
  }

  /** A non-empty string. Numbers and booleans are rejected: quote them. */
  string(key: string, opts: { required?: boolean; allowEmpty?: boolean } = {}): string | undefined {
    const node = this.valueNode(key);
    const path = joinPath(this.path, key);
    if (node === undefined) {
      if (opts.required) this.missing(key);
      return undefined;
    }
    if (!isScalar(node) || typeof node.value !== 'string') {
      this.source.report(node, path, `must be a string, got ${describe(node)}`);
      return undefined;
    }
    if (!opts.allowEmpty && node.value.trim() === '') {
      this.source.report(node, path, 'must not be empty');
      return undefined;
    }
    return node.value;
  }

  boolean(key: string): boolean | undefined {
    const node = this.valueNode(key);
    if (node === undefined) return undefined;
    if (!isScalar(node) || typeof node.value !== 'boolean') {
      this.source.report(node, joinPath(this.path, key), `must be true or false, got ${describe(node)}`);
      return undefined;
    }
    return node.value;
  }

  integer(key: string, opts: { min?: number } = {}): number | undefined {
    const node = this.valueNode(key);
    if (node === undefined) return undefined;
    const value = isScalar(node) ? node.value : undefined;
    if (typeof value !== 'number' || !Number.isInteger(value)) {
      this.source.report(node, joinPath(this.path, key), `must be an integer, got ${describe(node)}`);
      return undefined;
    }
    if (opts.min !== undefined && value < opts.min) {
      this.source.report(node, joinPath(this.path, key), `must be >= ${opts.min}`);
      return undefined;
    }
    return value;
  }

  /** One of `allowed` (case-sensitive); `undefined` when absent or invalid (issue recorded). */
  oneOf<T extends string>(key: string, allowed: readonly T[], opts: { required?: boolean } = {}): T | undefined {
    const node = this.valueNode(key);
    if (node === undefined) {
      if (opts.required) this.missing(key);
      return undefined;
    }
    const value = isScalar(node) ? node.value : undefined;
    if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
      const shown = isScalar(node) ? JSON.stringify(node.value) : describe(node);
      this.source.report(node, joinPath(this.path, key), `must be one of ${allowed.join(', ')}, got ${shown}`);
      return undefined;
    }
    return value as T;
  }

  map(key: string, opts: { required?: boolean } = {}): MapReader | undefined {
    const node = this.valueNode(key);
    const path = joinPath(this.path, key);
    if (node === undefined) {
      if (opts.required) this.missing(key);
      return undefined;
    }
    if (!isMap(node)) {
      this.source.report(node, path, `must be a mapping, got ${describe(node)}`);
      return undefined;
    }
    return new MapReader(this.source, node, path);
  }

  /** List items (any node type); `[]` when absent. */
  list(key: string, opts: { required?: boolean } = {}): { node: Node; path: string }[] {
    const node = this.valueNode(key);
    const path = joinPath(this.path, key);
    if (node === undefined) {
      if (opts.required) this.missing(key);
      return [];
    }
    if (isScalar(node) && node.value === null) return [];
    if (!isSeq(node)) {
      this.source.report(node, path, `must be a list, got ${describe(node)}`);
      return [];
    }
    return (node as YAMLSeq<Node>).items.map((item, i) => ({ node: item, path: joinPath(path, i) }));
  }

  /** Reports keys never read as unknown (strict decoding). */
  finish(): void {
    for (const pair of this.node?.items ?? []) {
      const key = String(isScalar(pair.key) ? pair.key.value : pair.key);
      if (!this.seen.has(key)) this.source.report(pair.key as Node, joinPath(this.path, key), 'unknown field');
    }
  }
}

/** Wraps a list item that must be a mapping. */
export function itemMap(source: YamlSource, item: { node: Node; path: string }): MapReader | undefined {
  if (!isMap(item.node)) {
    source.report(item.node, item.path, `must be a mapping, got ${describe(item.node)}`);
    return undefined;
  }
  return new MapReader(source, item.node, item.path);
}

/** Plain JS value of a node (aliases are rejected before reaching here). */
export function nodeToJs(node: Node): unknown {
  return node.toJSON();
}
