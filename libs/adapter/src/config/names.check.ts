import type { Declaration, DeclarationKind, LoadContext } from './load-context.js';
import { RESERVED_CONTEXT_NAMES } from './task-config.types.js';

/** CEL keywords and reserved words: a variable with one of these names cannot be referenced. */
const CEL_RESERVED = [
  'true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if',
  'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while',
];
/** CEL type and namespace names: a variable named so would shadow them, so cel-js refuses it (STACK.md "CEL"). */
const CEL_TYPE_NAMES = [
  'int', 'uint', 'double', 'bool', 'string', 'bytes', 'list', 'map', 'type', 'null_type', 'dyn',
  'optional', 'cel', 'google', 'strings', 'lists',
];

/** Resource, precondition and post-action names are CEL identifiers starting lower-case (§2.2). */
const STEP_NAME = /^[a-z][a-zA-Z0-9_]*$/;
/** Params, captures and payloads are variables in CEL and templates. */
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const VARIABLE_KINDS: readonly DeclarationKind[] = ['param', 'capture', 'payload', 'response'];

/** Names of every variable the config defines (params, captures, payloads, precondition responses). */
export function declaredVariables(ctx: LoadContext): Set<string> {
  return new Set(ctx.declarations.filter((d) => VARIABLE_KINDS.includes(d.kind)).map((d) => d.name));
}

function report(ctx: LoadContext, d: Declaration, message: string): void {
  ctx.source.report(d.position, d.path, message);
}

/**
 * Checks declared names: identifier syntax, reserved runtime/CEL names, and clashes (resource,
 * precondition and post-action names are unique per list; all variables share one namespace
 * because they become top-level CEL/template variables).
 */
export function checkNames(ctx: LoadContext): void {
  const firstByGroup = new Map<string, Declaration>();
  for (const d of ctx.declarations) {
    const isVariable = VARIABLE_KINDS.includes(d.kind);
    // A `response` repeats its precondition's name: syntax and keywords were checked there.
    if (d.kind !== 'response') {
      const pattern = isVariable ? VARIABLE_NAME : STEP_NAME;
      if (!pattern.test(d.name)) {
        report(ctx, d, `${JSON.stringify(d.name)} must match ${pattern.source}`);
        continue;
      }
      // Keywords break any use; type names only shadow when the name is a top-level variable.
      if (CEL_RESERVED.includes(d.name) || (isVariable && CEL_TYPE_NAMES.includes(d.name))) {
        report(ctx, d, `${JSON.stringify(d.name)} is a CEL reserved word or type name`);
        continue;
      }
    }
    if (isVariable && (RESERVED_CONTEXT_NAMES as readonly string[]).includes(d.name)) {
      report(ctx, d, `${JSON.stringify(d.name)} is reserved for the runtime variable of that name`);
      continue;
    }
    const group = `${isVariable ? 'variable' : d.kind}:${d.name}`;
    const first = firstByGroup.get(group);
    if (first) report(ctx, d, `${JSON.stringify(d.name)} is already declared at ${first.path}`);
    else firstByGroup.set(group, d);
  }
}
