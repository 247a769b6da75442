import type { Declaration, DeclarationKind, LoadContext } from './load-context.js';
import { RESERVED_CONTEXT_NAMES } from './task-config.types.js';

/**
 * Params, resources, preconditions and post actions follow HyperFleet's one rule, `^[a-z][a-zA-Z0-9_]*$`.
 * CEL reserved words (`namespace`, `package`, ...) are valid names: as a field (`resources.?namespace`)
 * they work; only a bare top-level reference fails, at CEL parse, as in HyperFleet.
 */
const NAME = /^[a-z][a-zA-Z0-9_]*$/;
/** Captures and payloads are variables in CEL and templates. */
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
 * Checks declared names: identifier syntax, reserved runtime names, and clashes (resource,
 * precondition and post-action names are unique per list; all variables share one namespace
 * because they become top-level CEL/template variables).
 */
export function checkNames(ctx: LoadContext): void {
  const firstByGroup = new Map<string, Declaration>();
  for (const d of ctx.declarations) {
    const isVariable = VARIABLE_KINDS.includes(d.kind);
    // A `response` repeats its precondition's name: syntax and keywords were checked there.
    if (d.kind !== 'response') {
      const pattern = d.kind === 'capture' || d.kind === 'payload' ? VARIABLE_NAME : NAME;
      if (!pattern.test(d.name)) {
        report(ctx, d, `${JSON.stringify(d.name)} must match ${pattern.source}`);
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
