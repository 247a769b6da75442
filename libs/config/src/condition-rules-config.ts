/**
 * Compiles an entity descriptor's `conditions:` list (HyperFleet condition mapping;
 * hyperfleet-api `docs/condition-mapping.md` "Configuration Schema" and "Startup Validation"): each rule is
 * `{ type, when: {expression}, output: { status|reason|message: {expression} } }`, compiled with the
 * shared CEL environment (libs/cel, which has `toJson` and `dig`). Every problem is reported as
 * `file:line:column field: message`, the CEL error's position placed inside the YAML scalar.
 */
import { positionInScalarValue } from './yaml-scalar-position.js';
import { CelCompileError, compileCel } from '@decom/cel';
import { MAPPED_CONDITION_LIMITS, reservedConditionTypes, type ConditionMappingRule, type MappingExpression } from '@decom/domain';
import { isMap, isScalar, isSeq, type LineCounter, type Node, type Scalar, type YAMLMap } from 'yaml';

/** Where and how to report: `at(node, field, message)` records one issue at the node's position. */
export interface RuleSource {
  readonly text: string;
  readonly lineCounter: LineCounter;
  readonly file: string;
  readonly issues: string[];
}

const RULE_KEYS = new Set(['type', 'when', 'output']);
const OUTPUT_KEYS = ['status', 'reason', 'message'] as const;

/**
 * Compiles `node` (the `conditions` value of entity `path`), pushing issues into `source.issues`.
 * Returns the rules that compiled (the caller throws when any issue was recorded).
 */
export function parseConditionRules(
  node: unknown,
  path: string,
  requiredAdapters: readonly string[],
  source: RuleSource,
): ConditionMappingRule[] {
  const at = (n: Node | null | undefined, field: string, message: string) => {
    const { line, col } = source.lineCounter.linePos(n?.range?.[0] ?? 0);
    source.issues.push(`${source.file}:${line}:${col} ${field}: ${message}`);
  };
  if (node === undefined || node === null || (isScalar(node) && node.value === null)) return [];
  if (!isSeq(node)) {
    at(node as Node, `${path}.conditions`, 'must be a list of condition mapping rules');
    return [];
  }
  const reserved = reservedConditionTypes(requiredAdapters);
  const seen = new Set<string>();
  const rules: ConditionMappingRule[] = [];
  node.items.forEach((item, i) => {
    const rulePath = `${path}.conditions[${i}]`;
    if (!isMap(item)) return at(item as Node, rulePath, 'must be a mapping with type, when and output');
    for (const pair of item.items) {
      const key = String((pair.key as { value?: unknown }).value);
      if (!RULE_KEYS.has(key)) at(pair.key as Node, `${rulePath}.${key}`, 'unknown field');
    }
    const typeNode = item.get('type', true) as Node | undefined;
    const type = isScalar(typeNode) ? typeNode.value : undefined;
    let typeOk = false;
    if (typeof type !== 'string' || type === '') at(typeNode ?? item, `${rulePath}.type`, 'must be a non-empty string');
    else if (type.length > MAPPED_CONDITION_LIMITS.type)
      at(typeNode, `${rulePath}.type`, `must be at most ${MAPPED_CONDITION_LIMITS.type} characters, got ${type.length}`);
    else if (reserved.has(type)) at(typeNode, `${rulePath}.type`, `"${type}" is a reserved condition type`);
    else if (seen.has(type)) at(typeNode, `${rulePath}.type`, `duplicate condition type "${type}"`);
    else typeOk = true;
    if (typeof type === 'string') seen.add(type);
    const when = expression(item, ['when'], `${rulePath}.when`, source, at);
    const output = item.get('output', true) as Node | undefined;
    const outputs: Partial<Record<(typeof OUTPUT_KEYS)[number], MappingExpression>> = {};
    if (!isMap(output)) at(output ?? item, `${rulePath}.output`, 'must be a mapping with status, reason and message');
    else {
      for (const pair of output.items) {
        const key = String((pair.key as { value?: unknown }).value);
        if (!(OUTPUT_KEYS as readonly string[]).includes(key)) at(pair.key as Node, `${rulePath}.output.${key}`, 'unknown field');
      }
      for (const key of OUTPUT_KEYS) {
        const compiled = expression(output, [key], `${rulePath}.output.${key}`, source, at);
        if (compiled) outputs[key] = compiled;
      }
    }
    if (typeOk && when && outputs.status && outputs.reason && outputs.message) {
      rules.push({ type: type as string, when, status: outputs.status, reason: outputs.reason, message: outputs.message });
    }
  });
  return rules;
}

/** Compiles `parent.<key>.expression`; on a CEL error reports the error's own position in the file. */
function expression(
  parent: YAMLMap,
  keys: readonly string[],
  field: string,
  source: RuleSource,
  at: (n: Node | null | undefined, field: string, message: string) => void,
): MappingExpression | undefined {
  const holder = parent.get(keys[0]!, true) as Node | undefined;
  if (!isMap(holder)) {
    at(holder ?? parent, field, 'must be a mapping with an expression');
    return undefined;
  }
  const node = holder.get('expression', true) as Node | undefined;
  const text = isScalar(node) ? node.value : undefined;
  if (typeof text !== 'string' || text.trim() === '') {
    at(node ?? holder, `${field}.expression`, 'must be a non-empty CEL expression');
    return undefined;
  }
  try {
    return compileCel(text);
  } catch (error) {
    if (!(error instanceof CelCompileError)) throw error;
    const start = source.lineCounter.linePos((node as Scalar).range?.[0] ?? 0);
    const { line, column } = positionInScalarValue(
      source.text,
      node as Scalar,
      { line: start.line, column: start.col },
      error.line,
      error.column,
    );
    source.issues.push(`${source.file}:${line}:${column} ${field}.expression: invalid CEL expression: ${error.reason}`);
    return undefined;
  }
}
