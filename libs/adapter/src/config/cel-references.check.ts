import { selectedFields, unknownVariables } from '@decom/cel';
import type { LoadContext } from './load-context.js';
import { VARIABLE_KINDS } from './names.check.js';
import { offsetInScalar } from './scalar-position.js';
import { DELETED_TIME_VARIABLE, RESERVED_CONTEXT_NAMES } from './task-config.types.js';

/**
 * Load-time safety for CEL (Decom; HyperFleet evaluates an undeclared variable like null, P9):
 * - every variable an expression reads should be a runtime variable or a param, capture, payload
 *   or precondition response declared before it (params resolve in order; precondition
 *   expressions with `api_call` are exempt: their response's keys are variables too). HyperFleet
 *   finds unknown variables only when evaluating, so this is a warning, an error with `strict`;
 * - every `resources.<name>` must name a resource or nested discovery: a typo would read as
 *   "absent" forever and could report `Finalized=True` while the object still exists.
 * Errors are positioned on the identifier inside the YAML scalar.
 * @see docs/adapter-expression-context.md "Load-time checks".
 */
export function checkCelReferences(ctx: LoadContext, strict = false): void {
  const runtime = [...RESERVED_CONTEXT_NAMES, DELETED_TIME_VARIABLE];
  const resourceNames = ctx.declarations.filter((d) => d.kind === 'resource').map((d) => d.name);
  const knownResources = new Set(resourceNames);
  for (const origin of ctx.celOrigins) {
    const { expr, node } = origin;
    const at = (offset: number) => offsetInScalar(ctx.source, node, expr.source, offset);
    if (!origin.openScope) {
      const declared = ctx.declarations.slice(0, origin.declaredBefore).filter((d) => VARIABLE_KINDS.includes(d.kind));
      const later = new Set(ctx.declarations.filter((d) => VARIABLE_KINDS.includes(d.kind)).map((d) => d.name));
      for (const unknown of unknownVariables(expr.source, [...runtime, ...declared.map((d) => d.name)])) {
        const hint = later.has(unknown.name) ? ` (declared later: params and captures resolve in order)` : '';
        const message = `unknown variable '${unknown.name}'${hint}`;
        if (strict) ctx.source.report(at(unknown.offset), expr.where, message);
        else ctx.source.warn(at(unknown.offset), expr.where, `${message}: evaluation will fail (an error with --strict)`);
      }
    }
    for (const field of selectedFields(expr.source, 'resources')) {
      if (knownResources.has(field.name)) continue;
      const known = resourceNames.length > 0 ? resourceNames.join(', ') : 'none';
      ctx.source.report(at(field.offset), expr.where, `unknown resource 'resources.${field.name}' (resources: ${known})`);
    }
  }
}
