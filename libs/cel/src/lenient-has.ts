import { EvaluationError, Optional } from '@marcbachmann/cel-js';
import type { CelAstNode, CelMacro, CelTypeDecl, MacroChecker, MacroContext, MacroEvaluator } from './cel-macro.types.js';
import { mapGet } from './map-access.js';

/**
 * Decom deviation from CEL: `has(a.b.c)` is `false`, not a "No such key" error, when an
 * intermediate (`a.b`) is absent or null. The seed's unchanged example task config asks
 * `has(resources.clusterConfigMap.metadata.resourceVersion)` after the ConfigMap is gone, i.e.
 * after its key was left out of `resources`, and must get "False" for Applied/Available.
 * The last step keeps CEL's meaning (the key is present, even with a null value); selecting a
 * field of a list, string or number is still an error, and so is an unknown variable.
 * Replaces the hooks of cel-js's own `has()` macro node; the argument must still be a field selection.
 * @see seeds/000 "Example Task Config with Deletion" (Applied/Available status expressions).
 */
export function lenientHas(original: CelMacro & { readonly args: readonly CelAstNode[] }): CelMacro {
  const selects: CelAstNode[] = [];
  let base = original.args[0]!;
  while (base.op === '.' || base.op === '.?') {
    selects.push(base);
    base = (base.args as [CelAstNode, string])[0];
  }
  return {
    ...original,
    async: false,
    // cel-js's own check insists that the chain starts at a variable; CEL allows any operand
    // (`has({'a': 1}.a)`), so only the outermost field selection is required here.
    typeCheck(checker: MacroChecker, _macro: CelMacro, ctx: MacroContext): CelTypeDecl {
      const arg = original.args[0]!;
      if (arg.op !== '.') throw checker.createError('invalid_macro_argument', 'has() invalid argument', arg);
      checker.check((arg.args as [CelAstNode, string])[0], ctx);
      return checker.getType('bool');
    },
    evaluate(evaluator: MacroEvaluator, _macro: CelMacro, ctx: MacroContext): boolean {
      let value = evaluator.run(base, ctx);
      for (let i = selects.length - 1; i >= 0; i -= 1) {
        if (value instanceof Optional) value = value.hasValue() ? value.value() : undefined;
        if (value === undefined || value === null) return false;
        const field = (selects[i]!.args as [CelAstNode, string])[1];
        value = selectField(value, field);
        if (value === undefined) return false;
      }
      return true;
    },
  };
}

function selectField(value: unknown, field: string): unknown {
  if (typeof value !== 'object' || Array.isArray(value) || value instanceof Date || value instanceof Uint8Array) {
    const kind = Array.isArray(value) ? 'list' : value instanceof Date ? 'timestamp' : typeof value;
    throw new EvaluationError(`has(): cannot select field '${field}' of a ${kind}`);
  }
  return mapGet(value, field);
}
