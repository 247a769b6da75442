/**
 * `config/sentinel.yaml`: Sentinel's `message_decision` per resource type (contract §3), e.g.
 *
 * ```yaml
 * sentinels:
 *   - resource_type: nodepools        # a kind's plural, as Sentinel's resource_type
 *     message_decision:
 *       params:
 *         - name: ref_time
 *           expr: condition("Reconciled").last_updated_time
 *       result: ref_time == ""
 * ```
 * Kinds without an entry, and every kind when the file does not exist, use Sentinel's default rule.
 * Unknown keys are refused, as HyperFleet's strict decoding does. Every problem is reported at once as
 * `file:line:column field: message`, with CEL errors pointing inside the expression.
 */
import { readFile } from 'node:fs/promises';
import { LineCounter, isMap, isScalar, isSeq, parseDocument, type Node, type Scalar, type YAMLMap } from 'yaml';
import {
  MessageDecisionError,
  compileMessageDecision,
  sentinelDefaultDecision,
  type CompiledMessageDecision,
  type MessageDecisionConfig,
  type MessageDecisionParam,
} from './message-decision.js';

export interface SentinelConfigIssue {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  /** Field path, e.g. `sentinels[0].message_decision.params[2].expr`. */
  readonly path: string;
  readonly message: string;
}

export class SentinelConfigError extends Error {
  override readonly name = 'SentinelConfigError';
  constructor(readonly issues: readonly SentinelConfigIssue[]) {
    super(issues.map((i) => `${i.file}:${i.line}:${i.column} ${i.path}: ${i.message}`).join('\n'));
  }
}

/** The compiled rules: one per listed kind (by plural), the default for the others. */
export interface SentinelRules {
  readonly byPlural: ReadonlyMap<string, CompiledMessageDecision>;
  readonly fallback: CompiledMessageDecision;
  /** The rule of a kind, by its plural (`clusters`). */
  forPlural(plural: string): CompiledMessageDecision;
}

export function sentinelRules(byPlural: ReadonlyMap<string, CompiledMessageDecision>, fallback = compileMessageDecision(sentinelDefaultDecision())): SentinelRules {
  return { byPlural, fallback, forPlural: (plural) => byPlural.get(plural) ?? fallback };
}

/**
 * Reads and compiles `file`; a missing file means "the default rule for every kind".
 * @param plurals the configured kinds' plurals; any other `resource_type` is an error.
 * @throws SentinelConfigError with every problem found.
 */
export async function loadSentinelConfig(file: string, plurals: readonly string[], fallback?: MessageDecisionConfig): Promise<SentinelRules> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return sentinelRules(new Map(), compileMessageDecision(fallback ?? sentinelDefaultDecision()));
    throw error;
  }
  return parseSentinelConfig(text, file, plurals, fallback);
}

/** As `loadSentinelConfig`, from text. */
export function parseSentinelConfig(text: string, file: string, plurals: readonly string[], fallback?: MessageDecisionConfig): SentinelRules {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const issues: SentinelConfigIssue[] = [];
  const at = (node: Node | undefined, path: string, message: string, inner?: { line?: number; column?: number }) => {
    const pos = position(text, lines, node, inner);
    issues.push({ file, ...pos, path, message });
  };
  for (const error of doc.errors) {
    const pos = lines.linePos(error.pos[0]);
    issues.push({ file, line: pos.line, column: pos.col, path: '(yaml)', message: error.message.split('\n')[0]! });
  }
  const byPlural = new Map<string, CompiledMessageDecision>();
  if (issues.length === 0 && doc.contents !== null) {
    const root = doc.contents as Node;
    if (!isMap(root)) at(root, '(root)', 'must be a mapping with a `sentinels` list');
    else {
      unknownKeys(root, ['sentinels'], '', at);
      const list = root.get('sentinels', true) as Node | undefined;
      if (list !== undefined && !isSeq(list)) at(list, 'sentinels', 'must be a list');
      if (isSeq(list)) {
        list.items.forEach((item, i) => {
          const path = `sentinels[${i}]`;
          if (!isMap(item)) return at(item as Node, path, 'must be a mapping');
          unknownKeys(item, ['resource_type', 'message_decision'], `${path}.`, at);
          const typeNode = item.get('resource_type', true) as Scalar | undefined;
          const plural = typeNode?.value;
          if (typeof plural !== 'string' || plural === '') return at(typeNode ?? item, `${path}.resource_type`, 'is required (a kind plural, e.g. clusters)');
          if (!plurals.includes(plural)) return at(typeNode, `${path}.resource_type`, `unknown resource type "${plural}" (configured: ${plurals.join(', ')})`);
          if (byPlural.has(plural)) return at(typeNode, `${path}.resource_type`, `"${plural}" is listed twice`);
          const decision = readDecision(item.get('message_decision', true) as Node | undefined, `${path}.message_decision`, item, at);
          if (decision) byPlural.set(plural, decision);
        });
      }
    }
  }
  if (issues.length > 0) throw new SentinelConfigError(issues.sort((a, b) => a.line - b.line || a.column - b.column));
  return sentinelRules(byPlural, compileMessageDecision(fallback ?? sentinelDefaultDecision()));
}

type At = (node: Node | undefined, path: string, message: string, inner?: { line?: number; column?: number }) => void;

function readDecision(node: Node | undefined, path: string, parent: Node, at: At): CompiledMessageDecision | undefined {
  if (!isMap(node)) return void at(node ?? parent, path, 'is required: { params: [{name, expr}...], result: <CEL bool> }');
  unknownKeys(node, ['params', 'result'], `${path}.`, at);
  const nodes = new Map<string, Node>();
  const params: MessageDecisionParam[] = [];
  const paramsNode = node.get('params', true) as Node | undefined;
  if (paramsNode !== undefined && !isSeq(paramsNode)) at(paramsNode, `${path}.params`, 'must be a list of {name, expr}');
  let broken = false;
  if (isSeq(paramsNode)) {
    paramsNode.items.forEach((item, i) => {
      const where = `${path}.params[${i}]`;
      if (!isMap(item)) return void ((broken = true), at(item as Node, where, 'must be a mapping {name, expr}'));
      unknownKeys(item, ['name', 'expr'], `${where}.`, at);
      const name = item.get('name', true) as Scalar | undefined;
      const expr = item.get('expr', true) as Scalar | undefined;
      if (typeof name?.value !== 'string') return void ((broken = true), at(name ?? item, `${where}.name`, 'is required (a string)'));
      if (typeof expr?.value !== 'string') return void ((broken = true), at(expr ?? item, `${where}.expr`, 'is required (a CEL expression)'));
      nodes.set(`params[${i}].name`, name);
      nodes.set(`params[${i}].expr`, expr);
      params.push({ name: name.value, expr: expr.value });
    });
  }
  const result = node.get('result', true) as Scalar | undefined;
  if (typeof result?.value !== 'string') return void at(result ?? node, `${path}.result`, 'is required (a CEL bool expression)');
  nodes.set('result', result);
  if (broken) return undefined;
  try {
    return compileMessageDecision({ params, result: result.value });
  } catch (error) {
    if (!(error instanceof MessageDecisionError)) throw error;
    at(nodes.get(error.where) ?? node, `${path}.${error.where}`, error.reason, { line: error.line, column: error.column });
    return undefined;
  }
}

function unknownKeys(map: YAMLMap, allowed: readonly string[], prefix: string, at: At): void {
  for (const pair of map.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
    if (!allowed.includes(key)) at(pair.key as Node, `${prefix}${key}`, `unknown field (allowed: ${allowed.join(', ')})`);
  }
}

/** File position of a node, or of a 1-based line/column inside a scalar's value. */
function position(text: string, lines: LineCounter, node: Node | undefined, inner?: { line?: number; column?: number }): { line: number; column: number } {
  const offset = node?.range?.[0] ?? 0;
  const start = lines.linePos(offset);
  if (!inner?.line || !inner.column || !isScalar(node)) return { line: start.line, column: start.col };
  if (node.type === 'BLOCK_LITERAL' || node.type === 'BLOCK_FOLDED') {
    // Block scalar: the value starts on the next line, at the block's indentation.
    const firstLine = text.slice(text.indexOf('\n', offset) + 1);
    const indent = firstLine.length - firstLine.trimStart().length;
    return { line: start.line + inner.line, column: indent + inner.column };
  }
  const quote = node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE' ? 1 : 0;
  return inner.line <= 1 ? { line: start.line, column: start.col + quote + inner.column - 1 } : { line: start.line + inner.line - 1, column: inner.column };
}
