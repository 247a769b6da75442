import type { Environment } from '@marcbachmann/cel-js';
import { installAstHooks } from './ast-hooks.js';
import { createCelEnvironment } from './cel-environment.js';
import type { CelAstNode } from './cel-macro.types.js';

/** A name an expression uses, with the 0-based offset of its first character in the expression. */
export interface CelReference {
  readonly name: string;
  readonly offset: number;
}

// Immutable once cloned below (cel-js locks a registry when it is cloned), hence safe to share.
const lenient = createCelEnvironment();
const STRICT_OPTIONS = { unlistedVariablesAreDyn: false, enableOptionalTypes: true, homogeneousAggregateLiterals: false } as const;
/** An unknown variable makes the checker stop; each retry declares it, so this bounds the retries. */
const MAX_UNKNOWN = 25;

/**
 * Variables `expression` reads that are not in `known`, in order of appearance. Scoping is
 * cel-js's own type checker run with undeclared variables disallowed, so comprehension variables
 * (`all(x, ...)`, `cel.bind(v, ...)`) are bound correctly.
 * The expression must already compile (`compileCel`); other check errors end the search.
 * @see docs/adapter-expression-context.md "Load-time checks".
 */
export function unknownVariables(expression: string, known: Iterable<string>): CelReference[] {
  const env: Environment = lenient.clone(STRICT_OPTIONS);
  for (const name of known) if (!env.hasVariable(name) && !isReservedWord(name)) env.registerVariable(name, 'dyn');
  const found: CelReference[] = [];
  let scope = env;
  for (let i = 0; i < MAX_UNKNOWN; i += 1) {
    const parsed = scope.parse(expression);
    installAstHooks(parsed.ast as unknown as CelAstNode);
    const checked = parsed.check();
    const message = checked.valid ? '' : String((checked.error as Error | undefined)?.message ?? '');
    const match = /^Unknown variable: ([A-Za-z_][A-Za-z0-9_]*)/.exec(message);
    if (!match) break;
    const name = match[1] as string;
    const range = (checked.error as { range?: { start?: number } }).range;
    found.push({ name, offset: range?.start ?? Math.max(expression.indexOf(name), 0) });
    // Declare it in a fresh child scope and look for the next one.
    scope = scope.clone(STRICT_OPTIONS).registerVariable(name, 'dyn');
  }
  return found;
}

/**
 * Whether `name` is one of CEL's reserved words (`namespace`, `package`, `var`, `function`, ... and
 * cel-js's own `prototype`): cel-js refuses to declare a variable of that name, and no expression can
 * read one (the parser refuses the bare word), so such a known name is simply not declared. HyperFleet
 * declares it in cel-go, where it is equally unreadable; either way it stays usable in templates.
 * Asked of cel-js itself (a declaration in a throw-away scope), so the set is always the library's.
 */
export function isReservedWord(name: string): boolean {
  let reserved = reservedWords.get(name);
  if (reserved === undefined) {
    try {
      lenient.clone(STRICT_OPTIONS).registerVariable(name, 'dyn');
      reserved = false;
    } catch (error) {
      reserved = /reserved name/.test(error instanceof Error ? error.message : String(error));
    }
    if (reservedWords.size < MAX_CACHED_WORDS) reservedWords.set(name, reserved);
  }
  return reserved;
}
const reservedWords = new Map<string, boolean>();
/** Names are checked once per config load: a bound keeps a long-lived process from growing the cache. */
const MAX_CACHED_WORDS = 10_000;

/**
 * Fields selected on the variable `root` (`resources.x`, `resources.?x`, `has(resources.x.y)`,
 * `resources["x"]`), with the offset of the field name. Used to check resource names at load.
 */
export function selectedFields(expression: string, root: string): CelReference[] {
  const parsed = lenient.parse(expression);
  const found: CelReference[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      value.forEach(visit);
      return;
    }
    if (!isNode(value)) return;
    const args = Array.isArray(value.args) ? (value.args as unknown[]) : [];
    const [target, field] = args;
    if (isNode(target) && target.op === 'id' && target.args === root) {
      if ((value.op === '.' || value.op === '.?') && typeof field === 'string') {
        found.push({ name: field, offset: offsetAfter(expression, field, target.end) });
      } else if (value.op === '[]' && isNode(field) && field.op === 'value' && typeof field.args === 'string') {
        found.push({ name: field.args, offset: field.start + 1 });
      }
    }
    visit(value.args);
  };
  visit(parsed.ast);
  return found;
}

function offsetAfter(expression: string, text: string, from: number): number {
  const at = expression.indexOf(text, from);
  return at === -1 ? from : at;
}

function isNode(value: unknown): value is CelAstNode {
  return typeof value === 'object' && value !== null && typeof (value as CelAstNode).op === 'string' && 'args' in value;
}
