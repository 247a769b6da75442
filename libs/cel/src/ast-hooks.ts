import { nowMacro } from './activation-clock.js';
import type { CelAstNode, CelMacro } from './cel-macro.types.js';
import { lenientHas } from './lenient-has.js';

/**
 * Adjusts a freshly parsed cel-js AST before it is checked and evaluated:
 * - every `has(...)` gets Decom's lenient evaluation (lenient-has.ts);
 * - every `now()` becomes a macro that reads the evaluation's clock (activation-clock.ts).
 * Works on the parsed tree through cel-js's node `meta` (the slot its parser stores macros in),
 * never on the source text.
 * @throws Error when cel-js no longer parses `has()` as a macro (an upgrade changed its internals).
 */
export function installAstHooks(root: CelAstNode): void {
  visit(root);
}

function visit(node: CelAstNode): void {
  if (node.op === 'call') {
    const [name, args] = node.args as [string, CelAstNode[]];
    if (name === 'has' && args.length === 1) {
      const macro = node.meta.macro as (CelMacro & { args: readonly CelAstNode[] }) | undefined;
      if (!macro?.args) throw new Error('cel-js internals changed: has() is not a macro node; see lenient-has.ts');
      node.setMeta('macro', lenientHas(macro));
    } else if (name === 'now' && args.length === 0) {
      node.setMeta('macro', nowMacro).setMeta('async', false);
    }
  }
  visitChildren(node.args);
}

function visitChildren(value: unknown): void {
  if (Array.isArray(value)) value.forEach(visitChildren);
  else if (isAstNode(value)) visit(value);
}

function isAstNode(value: unknown): value is CelAstNode {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as CelAstNode).op === 'string' &&
    typeof (value as CelAstNode).setMeta === 'function'
  );
}
