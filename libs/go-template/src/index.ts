/**
 * Go `text/template` for HyperFleet adapter task configs: Go's template language with
 * `missingkey=error` and HyperFleet's FuncMap, checked against real Go (see template.spec.ts).
 *
 * Supported: text, `{{ }}` actions with `{{-`/`-}}` trim markers, comments, pipelines (the piped value
 * is the LAST argument), parenthesised pipelines, variables (`$x :=`, `$x =`, `$`), field chains on
 * maps (`.a.b`, `$x.a`, `(pipe).a`), `if`/`else if`/`else`, `range` (lists; maps in key order;
 * `$i, $v :=`; `else`; `break`, `continue`), `with`/`else`, literals (interpreted and raw strings,
 * characters, numbers, `true`/`false`/`nil`), the builtins `and or not eq ne lt le gt ge len index
 * print printf println`, HyperFleet's functions (funcs.ts), a few `time.Time` methods
 * (`Unix UnixMilli Year YearDay Day Hour Minute Second Nanosecond UTC Format String`).
 *
 * Not supported (a syntax error, or Go's "function not defined"): `define`, `template`, `block`,
 * `else with` (Go 1.23), `range` over an integer (Go 1.22), the builtins `slice html js urlquery
 * call`, complex numbers. In `printf`: Go-syntax `%#v` of maps and lists (printed like `%v`),
 * `%x`/`%b` of floats, and non-string verbs on a time. Integers are exact within ±2^53.
 * How JavaScript data maps to Go values, and how numbers print, is described in values.ts.
 *
 * The oracle is Go 1.19 (Debian's); testdata/oracle/regenerate.sh rebuilds the golden file.
 */
import { TemplateExecError, TemplateSyntaxError } from './errors.js';
import { Executor } from './exec.js';
import { hasFunction } from './funcs.js';
import type { ArgNode, ListNode, PipeNode } from './nodes.js';
import { parseTemplate } from './parser.js';

export { TemplateExecError, TemplateSyntaxError };
export { GoNumber, GoTime, goFloat64, goInt64 } from './values.js';

export interface TemplateOptions {
  /** Injected clock for `now`; default `() => new Date()`. */
  now?: () => Date;
}

export interface CompiledTemplate {
  /** Renders with `data` as `.`. @throws TemplateExecError */
  render(data: Readonly<Record<string, unknown>>, options?: TemplateOptions): string;
  /** Top-level data keys referenced as `.name` (first segment) anywhere, for load-time validation. */
  referencedVariables(): string[];
}

/** Parses a template once; render it many times. @throws TemplateSyntaxError */
export function compileTemplate(source: string): CompiledTemplate {
  const root = parseTemplate(source, hasFunction);
  return {
    render(data, options) {
      const now = options?.now ?? (() => new Date());
      return new Executor(source, data, { now }).run(root);
    },
    referencedVariables() {
      return referencedVariables(root);
    },
  };
}

/** Convenience: strings without '{{' are returned untouched (no parse). */
export function renderTemplate(source: string, data: Readonly<Record<string, unknown>>, options?: TemplateOptions): string {
  if (!hasTemplate(source)) return source;
  return compileTemplate(source).render(data, options);
}

export function hasTemplate(source: string): boolean {
  return source.includes('{{');
}

/**
 * Keys of the top-level data that the template reads: `.name` wherever `.` is still the top-level
 * data (not inside a `with` or `range` body, where `.` is something else) and `$.name` anywhere.
 */
function referencedVariables(root: ListNode): string[] {
  const seen = new Set<string>();
  const visitArg = (a: ArgNode, dotIsRoot: boolean): void => {
    switch (a.kind) {
      case 'field':
        if (dotIsRoot) seen.add(a.ident[0] as string);
        return;
      case 'variable':
        if (a.ident[0] === '$' && a.ident.length > 1) seen.add(a.ident[1] as string);
        return;
      case 'chain':
        return visitArg(a.node, dotIsRoot);
      case 'pipe':
        return visitPipe(a, dotIsRoot);
    }
  };
  const visitPipe = (p: PipeNode, dotIsRoot: boolean): void => {
    for (const c of p.cmds) for (const a of c.args) visitArg(a, dotIsRoot);
  };
  const visitList = (l: ListNode | null, dotIsRoot: boolean): void => {
    for (const n of l?.nodes ?? []) {
      switch (n.kind) {
        case 'action':
          visitPipe(n.pipe, dotIsRoot);
          break;
        case 'if':
        case 'with':
        case 'range':
          visitPipe(n.pipe, dotIsRoot);
          visitList(n.list, n.kind === 'if' && dotIsRoot);
          visitList(n.elseList, dotIsRoot);
          break;
      }
    }
  };
  visitList(root, true);
  return [...seen];
}
