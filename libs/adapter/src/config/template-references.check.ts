import type { LoadContext } from './load-context.js';
import { declaredVariables } from './names.check.js';
import { DELETED_TIME_VARIABLE, RESERVED_CONTEXT_NAMES } from './task-config.types.js';

/** First segment of a referenced variable (`adapter.name` → `adapter`, `.clusterId` → `clusterId`). */
function rootName(reference: string): string {
  return reference.replace(/^[.$]+/, '').split(/[.[]/)[0] ?? reference;
}

/**
 * Every `{{ .var }}` must name a param, capture, payload, precondition response or runtime variable
 * (`adapter`, `resources`, `env`, `event`, `config`, `deleted_time`): with `missingkey=error` an
 * unknown one would only fail at run time. Checked after all sections so order does not matter
 * (HyperFleet's check is global too).
 */
export function checkTemplateReferences(ctx: LoadContext): void {
  const known = new Set<string>([...declaredVariables(ctx), ...RESERVED_CONTEXT_NAMES, DELETED_TIME_VARIABLE]);
  for (const origin of ctx.templates) {
    const compiled = origin.text.compiled;
    if (!compiled) continue;
    const reported = new Set<string>();
    for (const reference of compiled.referencedVariables()) {
      const name = rootName(reference);
      if (name === '' || known.has(name) || reported.has(name)) continue;
      reported.add(name);
      const offset = Math.max(origin.text.source.indexOf(`.${name}`), 0);
      const { file, position } = origin.locate(offset);
      ctx.source.issues.push({
        file,
        ...position,
        path: origin.text.where,
        message: `template references undefined variable .${name}`,
      });
    }
  }
}
