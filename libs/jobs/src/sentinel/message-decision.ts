/**
 * Sentinel's `message_decision` (hyperfleet-sentinel `docs/config.md`): named CEL `params`, evaluated in authored order
 * (each sees the ones before it), and a boolean `result` saying whether to publish a reconcile event for a resource.
 * Variables: `resource` (the resource as the API's GET returns it), `now` (timestamp), and Sentinel's
 * `condition(name)`, which returns the resource's condition of that type or a zero value
 * `{status: "", observed_generation: 0, last_updated_time: "", ...}`.
 *
 * Evaluated with `compileCel` from `@decom/cel`. Its environment is shared and locked, so
 * `condition("X")` cannot be a per-resource function there: the text is rewritten to `condition["X"]`
 * (same length, so positions stay right) over a map holding every condition the rule names. Hence the
 * argument must be a string literal. Params become nested `cel.bind`s so their values keep their CEL
 * types (a duration stays a duration).
 */
import { CelCompileError, compileCel, type CompiledCel } from '@decom/cel';

export interface MessageDecisionParam {
  readonly name: string;
  readonly expr: string;
}

export interface MessageDecisionConfig {
  readonly params: readonly MessageDecisionParam[];
  readonly result: string;
}

/**
 * A resource as the sweeper sees it: the API's JSON, all of it visible to the rule as `resource` (only the
 * fields Decom itself reads are typed here).
 */
export interface DecisionResource {
  readonly id: string;
  readonly kind: string;
  readonly generation: number;
  readonly status: { readonly conditions: readonly { readonly type: string }[] };
}

/**
 * Sentinel's default rule, word for word, with its two durations as parameters (defaults: a resource
 * Reconciled for more than 30 m, or not Reconciled for more than 10 s, is re-published).
 */
export function sentinelDefaultDecision(durations: { maxAge?: string; debounce?: string } = {}): MessageDecisionConfig {
  const maxAge = durations.maxAge ?? '30m';
  const debounce = durations.debounce ?? '10s';
  return {
    params: [
      { name: 'ref_time', expr: 'condition("Reconciled").last_updated_time' },
      { name: 'is_reconciled', expr: 'condition("Reconciled").status == "True"' },
      { name: 'has_ref_time', expr: 'ref_time != ""' },
      { name: 'is_new_resource', expr: 'resource.generation == 1 && !has_ref_time' },
      { name: 'generation_mismatch', expr: 'resource.generation > condition("Reconciled").observed_generation' },
      { name: 'reconciled_and_stale', expr: `is_reconciled && has_ref_time && now - timestamp(ref_time) > duration("${maxAge}")` },
      {
        name: 'not_reconciled_and_debounced',
        expr: `!is_reconciled && has_ref_time && now - timestamp(ref_time) > duration("${debounce}")`,
      },
    ],
    result: 'is_new_resource || generation_mismatch || reconciled_and_stale || not_reconciled_and_debounced',
  };
}

/**
 * A rule that does not compile, or failed on a resource. `where` is the rule path (`params[5].expr`,
 * `result`); `line`/`column` are 1-based inside that expression when known.
 */
export class MessageDecisionError extends Error {
  override readonly name = 'MessageDecisionError';
  constructor(
    readonly where: string,
    readonly reason: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(`${where}${line !== undefined ? ` (${line}:${column})` : ''}: ${reason}`);
  }
}

export interface CompiledMessageDecision {
  readonly config: MessageDecisionConfig;
  /** @throws MessageDecisionError when the rule fails on this resource or its result is not a bool. */
  decide(resource: DecisionResource, now: Date): boolean;
}

const RESERVED = new Set(['resource', 'now', 'condition']);
const CONDITION_CALL = /\bcondition(\s*)\(/g;
const LITERAL_ARGUMENT = /^(\s*)("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')(\s*)\)/;

/**
 * Compiles a rule once (at start-up).
 * @throws MessageDecisionError naming the param or `result`, with the position inside the expression.
 */
export function compileMessageDecision(config: MessageDecisionConfig): CompiledMessageDecision {
  const conditionNames = new Set<string>();
  const seen = new Set<string>();
  const rewrite = (expr: string, where: string): string => {
    const { text, names } = rewriteConditionCalls(expr, where);
    names.forEach((n) => conditionNames.add(n));
    try {
      compileCel(text);
    } catch (error) {
      if (error instanceof CelCompileError) throw new MessageDecisionError(where, error.reason, error.line, error.column);
      throw error;
    }
    return text;
  };
  const params = config.params.map((param, i) => {
    const where = `params[${i}]`;
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(param.name))
      throw new MessageDecisionError(`${where}.name`, `"${param.name}" is not a CEL identifier`);
    if (RESERVED.has(param.name)) throw new MessageDecisionError(`${where}.name`, `"${param.name}" is a variable of the rule already`);
    if (seen.has(param.name)) throw new MessageDecisionError(`${where}.name`, `"${param.name}" is defined twice`);
    seen.add(param.name);
    return { name: param.name, text: rewrite(param.expr, `${where}.expr`) };
  });
  const result = rewrite(config.result, 'result');
  // Innermost first: cel.bind(p1, e1, cel.bind(p2, e2, result)); newlines end any trailing comment.
  const combined = params.reduceRight((inner, p) => `cel.bind(${p.name}, (\n${p.text}\n), (\n${inner}\n))`, result);
  let compiled: CompiledCel;
  try {
    compiled = compileCel(combined);
  } catch (error) {
    throw new MessageDecisionError('params', error instanceof Error ? error.message : String(error));
  }
  return {
    config,
    decide(resource, now) {
      let value: unknown;
      try {
        value = compiled.evaluate({ resource, now, condition: conditionsByName(resource, conditionNames) });
      } catch (error) {
        throw new MessageDecisionError('result', error instanceof Error ? error.message : String(error));
      }
      if (typeof value !== 'boolean') throw new MessageDecisionError('result', `must be a bool, got ${JSON.stringify(value)}`);
      return value;
    },
  };
}

/** `condition("X")` → `condition["X"]`, keeping every offset; returns the names used. */
function rewriteConditionCalls(expr: string, where: string): { text: string; names: string[] } {
  const names: string[] = [];
  let text = expr;
  for (const match of expr.matchAll(CONDITION_CALL)) {
    const open = match.index + match[0].length - 1;
    const argument = LITERAL_ARGUMENT.exec(expr.slice(open + 1));
    if (!argument) {
      const { line, column } = position(expr, open);
      throw new MessageDecisionError(where, 'condition() takes one string literal, e.g. condition("Reconciled")', line, column);
    }
    const close = open + argument[0].length;
    names.push(JSON.parse(argument[2]!.startsWith("'") ? `"${argument[2]!.slice(1, -1).replace(/"/g, '\\"')}"` : argument[2]!) as string);
    text = `${text.slice(0, open)}[${text.slice(open + 1, close)}]${text.slice(close + 1)}`;
  }
  return { text, names };
}

const ZERO_CONDITION = {
  type: '',
  status: '',
  reason: '',
  message: '',
  observed_generation: 0,
  last_transition_time: '',
  last_updated_time: '',
};

function conditionsByName(resource: DecisionResource, names: ReadonlySet<string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of names) {
    const found = resource.status?.conditions?.find((c) => c.type === name);
    out[name] = found ? { ...ZERO_CONDITION, ...found } : ZERO_CONDITION;
  }
  return out;
}

function position(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}
