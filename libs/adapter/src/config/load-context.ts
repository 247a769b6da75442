import { existsSync } from 'node:fs';
import { basename, isAbsolute, join, resolve } from 'node:path';
import { isScalar } from 'yaml';
import type { Node } from 'yaml';
import { CelCompileError, compileCel } from '@decom/cel';
import { compileTemplate, hasTemplate } from '@decom/go-template';
import { lineColumnAt, offsetInScalar, positionInScalar } from './scalar-position.js';
import type { CelExpr, TemplateText } from './task-config.types.js';
import type { FilePosition, MapReader, YamlSource } from './yaml-reader.js';

/** Where a compiled template came from, so undefined `{{ .var }}` references can be positioned. */
export interface TemplateOrigin {
  readonly text: TemplateText;
  /** Map a 0-based offset in the template source to a file position. */
  readonly locate: (offset: number) => { file: string; position: FilePosition };
}

/** Where a compiled CEL expression came from, so its variables can be checked once all names are known. */
export interface CelOrigin {
  readonly expr: CelExpr;
  readonly node: Node;
  /** Declarations made before it (semantic order: params, preconditions, resources, post). */
  readonly declaredBefore: number;
  /**
   * Inside a precondition with `api_call`, the response's top-level keys are variables too; they
   * are unknown at load, so free variables cannot be checked there.
   */
  readonly openScope: boolean;
}

/** `response` = a precondition with `api_call`, whose JSON body becomes a variable of that name. */
export type DeclarationKind = 'param' | 'capture' | 'precondition' | 'response' | 'resource' | 'payload' | 'post_action';

/** A name introduced by the config, with where it was written. */
export interface Declaration {
  readonly kind: DeclarationKind;
  readonly name: string;
  readonly path: string;
  readonly position: FilePosition;
}

/** Message of an error thrown by the template or CEL compiler, without position decoration. */
function reasonOf(error: unknown): string {
  const reason = (error as { reason?: unknown }).reason;
  if (typeof reason === 'string') return reason;
  return error instanceof Error ? error.message : String(error);
}

/** 1-based line/column carried by a template/CEL compile error, if any. */
function errorPosition(error: unknown): { line: number; column: number } | undefined {
  const { line, column } = error as { line?: unknown; column?: unknown };
  return typeof line === 'number' && typeof column === 'number' ? { line, column } : undefined;
}

/**
 * State shared by the section parsers of one task-config load: the YAML source (issues land
 * there), the directory `ref`/`build_ref` paths are relative to, and every template compiled so
 * far (checked for undefined variables once all names are known).
 */
export class LoadContext {
  readonly templates: TemplateOrigin[] = [];
  readonly declarations: Declaration[] = [];
  readonly celOrigins: CelOrigin[] = [];
  private openScope = false;

  constructor(
    readonly source: YamlSource,
    readonly baseDir: string,
  ) {}

  /**
   * The file a `ref`/`build_ref` names: relative paths are relative to the config's directory. HyperFleet's
   * chart mounts a folder's `adapter-task-resource-<key>.yaml` at `/etc/adapter/<key>.yaml`; read from that
   * folder, such a reference reads the folder's file when it exists (with a warning saying so), so an
   * engine hosting several adapters gives each its own file instead of one shared `/etc/adapter`.
   */
  refPath(ref: string, node: Node | undefined, path: string): string {
    if (!isAbsolute(ref)) return resolve(this.baseDir, ref);
    const mounted = /^\/etc\/adapter\/([^/]+)\.ya?ml$/.exec(ref);
    if (!mounted) return ref;
    const local = ['yaml', 'yml'].map((ext) => join(this.baseDir, `adapter-task-resource-${mounted[1]}.${ext}`)).find((f) => existsSync(f));
    if (!local) return ref;
    this.source.warn(
      node,
      path,
      `${JSON.stringify(ref)} is read from this folder's ${basename(local)} (HyperFleet's chart mounts it there)`,
    );
    return local;
  }

  /** Records a declared name (checked for syntax, reserved words and clashes by `checkNames`). */
  declare(kind: DeclarationKind, name: string, node: Node | undefined, path: string): void {
    this.declarations.push({ kind, name, path, position: this.source.nodePosition(node) });
  }

  /** Compiles the CEL expression at `map.key` (a non-empty string); records an issue on failure. */
  cel(map: MapReader, key: string, opts: { required?: boolean } = {}): CelExpr | undefined {
    const text = map.string(key, opts);
    if (text === undefined) return undefined;
    return this.celAt(map.valueNode(key) as Node, text, `${map.path}.${key}`);
  }

  celAt(node: Node, text: string, where: string): CelExpr | undefined {
    try {
      const expr: CelExpr = { source: text, where, compiled: compileCel(text) };
      this.celOrigins.push({ expr, node, declaredBefore: this.declarations.length, openScope: this.openScope });
      return expr;
    } catch (error) {
      const at = errorPosition(error);
      const pos =
        at && error instanceof CelCompileError ? positionInScalar(this.source, node, at.line, at.column) : this.source.nodePosition(node);
      this.source.report(pos, where, reasonOf(error));
      return undefined;
    }
  }

  /** Runs `read` with the variables of an API response in scope (unknown at load time). */
  withResponseScope<T>(read: () => T): T {
    const before = this.openScope;
    this.openScope = true;
    try {
      return read();
    } finally {
      this.openScope = before;
    }
  }

  /** Compiles a template-bearing string scalar; strings without `{{` stay plain text. */
  templateAt(node: Node, text: string, where: string): TemplateText | undefined {
    const locate = (offset: number) => ({ file: this.source.file, position: offsetInScalar(this.source, node, text, offset) });
    return this.templateWith(text, where, locate, (line, column) => ({
      file: this.source.file,
      position: positionInScalar(this.source, node, line, column),
    }));
  }

  /** Compiles a template that lives in another file (`manifest.ref`): positions are that file's. */
  templateInFile(file: string, text: string, where: string): TemplateText | undefined {
    const locate = (offset: number) => ({ file, position: lineColumnAt(text, offset) });
    return this.templateWith(text, where, locate, (line, column) => ({ file, position: { line, column } }));
  }

  private templateWith(
    text: string,
    where: string,
    locate: TemplateOrigin['locate'],
    atLineColumn: (line: number, column: number) => { file: string; position: FilePosition },
  ): TemplateText | undefined {
    if (!hasTemplate(text)) return { source: text, where };
    try {
      const result: TemplateText = { source: text, where, compiled: compileTemplate(text) };
      this.templates.push({ text: result, locate });
      return result;
    } catch (error) {
      const at = errorPosition(error);
      const { file, position } = at ? atLineColumn(at.line, at.column) : locate(0);
      this.source.issues.push({ file, ...position, path: where, message: reasonOf(error) });
      return undefined;
    }
  }

  /** A templated string field (`url`, `by_name`, ...). */
  template(map: MapReader, key: string, opts: { required?: boolean; allowEmpty?: boolean } = {}): TemplateText | undefined {
    const text = map.string(key, opts);
    if (text === undefined) return undefined;
    return this.templateAt(map.valueNode(key) as Node, text, `${map.path}.${key}`);
  }

  /** A templated scalar that YAML may have typed as a number/bool (e.g. a label value `1`). */
  scalarTemplate(node: Node, where: string): TemplateText | undefined {
    if (!isScalar(node) || node.value === null || typeof node.value === 'object') {
      this.source.report(node, where, 'must be a string');
      return undefined;
    }
    return this.templateAt(node, String(node.value), where);
  }
}
