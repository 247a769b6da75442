/**
 * The slice of cel-js 8's macro and AST contract that this folder relies on. cel-js documents the
 * macro hooks (`typeCheck(checker, macro, ctx)`, `evaluate(evaluator, macro, ctx)`, `checker.check`,
 * `evaluator.run`) but types them as `any`; `ctx.forkWithVariable` / `reuse` / `setIterValue` are
 * what its own `cel.bind` macro uses. `meta`/`setMeta` on AST nodes are used by the AST hooks
 * (see ast-hooks.ts); compile-cel.spec.ts fails loudly if a cel-js upgrade changes any of this.
 */

export interface CelTypeDecl {
  readonly kind: string;
  /** `string`, `int`, `list`, `map`, `dyn`, `null`, or a message name such as `google.protobuf.Timestamp`. */
  readonly type: string;
  readonly valueType?: CelTypeDecl;
}

export interface CelAstNode {
  readonly op: string;
  readonly args: unknown;
  readonly input: string;
  readonly pos: number;
  readonly start: number;
  readonly end: number;
  readonly meta: { macro?: CelMacro; [key: string]: unknown };
  setMeta(key: string, value: unknown): CelAstNode;
}

export interface MacroChecker {
  check(node: CelAstNode, ctx: MacroContext): CelTypeDecl;
  getType(name: string): CelTypeDecl;
  createError(code: string, message: string, node?: CelAstNode): Error;
}

export interface MacroEvaluator {
  run(node: CelAstNode, ctx: MacroContext): unknown;
}

export interface MacroContext {
  getValue(key: string): unknown;
  forkWithVariable(name: string, type: CelTypeDecl): MacroOverlayContext;
}

/** A scope with one extra variable (a comprehension or `cel.bind` iteration variable). */
export interface MacroOverlayContext extends MacroContext {
  /** Re-parents the scope onto this evaluation's context and returns it. */
  reuse(parent: MacroContext): MacroOverlayContext;
  setIterValue(value: unknown, evaluator: MacroEvaluator): MacroOverlayContext;
}

export interface CelMacro {
  readonly async?: boolean;
  typeCheck(checker: MacroChecker, macro: this, ctx: MacroContext): CelTypeDecl;
  evaluate(evaluator: MacroEvaluator, macro: this, ctx: MacroContext): unknown;
}

/** What cel-js passes to a macro handler (a function registered with `ast` parameters) at parse time. */
export interface MacroExpansion {
  readonly ast: CelAstNode;
  readonly args: readonly CelAstNode[];
  readonly receiver: CelAstNode | null;
}
