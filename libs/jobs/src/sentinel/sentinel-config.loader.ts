/**
 * `config/sentinel.yaml`: Sentinel's `message_decision` per resource type, e.g.
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
 * HyperFleet Sentinel's own config files load unchanged too (hyperfleet-sentinel `docs/config.md`): a file with a
 * top-level `resource_type` is one Sentinel (`sentinel`, `resource_type`, `poll_interval`, `resource_selector`,
 * `clients`, `message_decision`, `message_data`, `log`, `debug_config`, `tracing_enabled`), and the path
 * may name a directory of such files (one per resource type). `clients`, `log`, `debug_config`,
 * `tracing_enabled` and `sentinel` are accepted and not used (Decom's sweep runs in-process).
 * Unknown keys are refused, as HyperFleet's strict decoding does. Every problem is reported at once as
 * `file:line:column field: message`, with CEL errors pointing inside the expression.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { parseGoDuration } from '@decom/config';
import { compileMessageData, MessageDataError, type CompiledMessageData } from './message-data.js';
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

/** What a HyperFleet Sentinel file adds to a kind's rule (none for Decom's `sentinels:` list). */
export interface SentinelRuleOptions {
  /** `resource_selector`: only resources carrying every one of these labels are swept by the rule (AND). */
  readonly selector: readonly { readonly label: string; readonly value: string }[];
  /** `poll_interval`: this kind's rule sweeps at most this often (ms); default: the sweep interval. */
  readonly pollIntervalMs?: number;
  /** `message_data`: shapes the event data of the runs the rule dispatches. */
  readonly messageData?: CompiledMessageData;
}

const NO_OPTIONS: SentinelRuleOptions = { selector: [] };

/** The compiled rules: one per listed kind (by plural), the default for the others. */
export interface SentinelRules {
  readonly byPlural: ReadonlyMap<string, CompiledMessageDecision>;
  readonly fallback: CompiledMessageDecision;
  /** The rule of a kind, by its plural (`clusters`). */
  forPlural(plural: string): CompiledMessageDecision;
  /** The selector, poll interval and message data of a kind's rule. */
  optionsFor(plural: string): SentinelRuleOptions;
}

export function sentinelRules(
  byPlural: ReadonlyMap<string, CompiledMessageDecision>,
  fallback = compileMessageDecision(sentinelDefaultDecision()),
  options: ReadonlyMap<string, SentinelRuleOptions> = new Map(),
): SentinelRules {
  return {
    byPlural,
    fallback,
    forPlural: (plural) => byPlural.get(plural) ?? fallback,
    optionsFor: (plural) => options.get(plural) ?? NO_OPTIONS,
  };
}

interface ParsedEntries {
  readonly byPlural: Map<string, CompiledMessageDecision>;
  readonly options: Map<string, SentinelRuleOptions>;
  /** Where each plural was defined (duplicate detection across a directory's files). */
  readonly origin: Map<string, string>;
}

/**
 * Reads and compiles `file`; a missing file means "the default rule for every kind".
 * @param plurals the configured kinds' plurals; any other `resource_type` is an error.
 * @throws SentinelConfigError with every problem found.
 */
export async function loadSentinelConfig(
  file: string,
  plurals: readonly string[],
  fallback?: MessageDecisionConfig,
): Promise<SentinelRules> {
  const defaults = () => compileMessageDecision(fallback ?? sentinelDefaultDecision());
  let isDirectory: boolean;
  try {
    isDirectory = (await stat(file)).isDirectory();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return sentinelRules(new Map(), defaults());
    throw error;
  }
  const files = isDirectory
    ? (await readdir(file))
        .filter((f) => /\.ya?ml$/.test(f))
        .sort()
        .map((f) => join(file, f))
    : [file];
  const entries: ParsedEntries = { byPlural: new Map(), options: new Map(), origin: new Map() };
  const issues: SentinelConfigIssue[] = [];
  for (const path of files) {
    try {
      parseEntries(await readFile(path, 'utf8'), path, plurals, entries);
    } catch (error) {
      if (!(error instanceof SentinelConfigError)) throw error;
      issues.push(...error.issues);
    }
  }
  if (issues.length > 0) throw new SentinelConfigError(issues);
  return sentinelRules(entries.byPlural, defaults(), entries.options);
}

/** As `loadSentinelConfig`, from the text of one file. */
export function parseSentinelConfig(
  text: string,
  file: string,
  plurals: readonly string[],
  fallback?: MessageDecisionConfig,
): SentinelRules {
  const entries: ParsedEntries = { byPlural: new Map(), options: new Map(), origin: new Map() };
  parseEntries(text, file, plurals, entries);
  return sentinelRules(entries.byPlural, compileMessageDecision(fallback ?? sentinelDefaultDecision()), entries.options);
}

/** HyperFleet Sentinel's top-level keys (hyperfleet-sentinel `docs/config.md`). */
const SENTINEL_FILE_KEYS = [
  'sentinel',
  'resource_type',
  'poll_interval',
  'resource_selector',
  'clients',
  'message_decision',
  'message_data',
  'log',
  'debug_config',
  'tracing_enabled',
];

/** Parses one file into `into`. @throws SentinelConfigError */
function parseEntries(text: string, file: string, plurals: readonly string[], into: ParsedEntries): void {
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
  const byPlural = into.byPlural;
  const claim = (plural: string, node: Node, path: string): boolean => {
    const earlier = into.origin.get(plural);
    if (earlier !== undefined) {
      at(node, path, `"${plural}" is listed twice${earlier === file ? '' : ` (also in ${earlier})`}`);
      return false;
    }
    into.origin.set(plural, file);
    return true;
  };
  if (issues.length === 0 && doc.contents !== null) {
    const root = doc.contents as Node;
    if (!isMap(root)) at(root, '(root)', 'must be a mapping with a `sentinels` list');
    else if (root.has('resource_type')) readSentinelFile(root, plurals, into, claim, at);
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
          if (typeof plural !== 'string' || plural === '')
            return at(typeNode ?? item, `${path}.resource_type`, 'is required (a kind plural, e.g. clusters)');
          if (!plurals.includes(plural))
            return at(typeNode, `${path}.resource_type`, `unknown resource type "${plural}" (configured: ${plurals.join(', ')})`);
          if (!claim(plural, typeNode as Node, `${path}.resource_type`)) return;
          const decision = readDecision(item.get('message_decision', true) as Node | undefined, `${path}.message_decision`, item, at);
          if (decision) byPlural.set(plural, decision);
        });
      }
    }
  }
  if (issues.length > 0) throw new SentinelConfigError(issues.sort((a, b) => a.line - b.line || a.column - b.column));
}

/** One HyperFleet Sentinel config file. */
function readSentinelFile(
  root: YAMLMap,
  plurals: readonly string[],
  into: ParsedEntries,
  claim: (plural: string, node: Node, path: string) => boolean,
  at: At,
): void {
  unknownKeys(root, SENTINEL_FILE_KEYS, '', at);
  const typeNode = root.get('resource_type', true) as Scalar | undefined;
  const plural = typeNode?.value;
  if (typeof plural !== 'string' || plural === '')
    return at(typeNode ?? root, 'resource_type', 'is required (a kind plural, e.g. clusters)');
  if (!plurals.includes(plural))
    return at(typeNode, 'resource_type', `unknown resource type "${plural}" (configured: ${plurals.join(', ')})`);
  if (!claim(plural, typeNode as Node, 'resource_type')) return;
  const decisionNode = root.get('message_decision', true) as Node | undefined;
  const decision =
    decisionNode === undefined
      ? compileMessageDecision(sentinelDefaultDecision())
      : readDecision(decisionNode, 'message_decision', root, at);
  let pollIntervalMs: number | undefined;
  const pollNode = root.get('poll_interval', true) as Scalar | undefined;
  if (pollNode !== undefined) {
    const parsed = typeof pollNode.value === 'string' ? parseGoDuration(pollNode.value) : undefined;
    if (parsed === undefined || parsed <= 0)
      at(pollNode, 'poll_interval', `must be a Go duration > 0 such as "5s", got ${JSON.stringify(pollNode.value)}`);
    else pollIntervalMs = parsed;
  }
  const selector: { label: string; value: string }[] = [];
  const selectorNode = root.get('resource_selector', true) as Node | undefined;
  if (selectorNode !== undefined && !isSeq(selectorNode)) at(selectorNode, 'resource_selector', 'must be a list of {label, value}');
  if (isSeq(selectorNode)) {
    selectorNode.items.forEach((item, i) => {
      const where = `resource_selector[${i}]`;
      if (!isMap(item)) return at(item as Node, where, 'must be a mapping {label, value}');
      unknownKeys(item, ['label', 'value'], `${where}.`, at);
      const label = (item.get('label', true) as Scalar | undefined)?.value;
      const value = (item.get('value', true) as Scalar | undefined)?.value;
      if (typeof label !== 'string' || label === '') return at(item, `${where}.label`, 'is required (a label key)');
      if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean')
        return at(item, `${where}.value`, 'is required (a label value)');
      selector.push({ label, value: String(value) });
    });
  }
  let messageData: CompiledMessageData | undefined;
  const dataNode = root.get('message_data', true) as Node | undefined;
  if (dataNode !== undefined) {
    if (!isMap(dataNode)) at(dataNode, 'message_data', 'must be a map of CEL expressions');
    else {
      try {
        messageData = compileMessageData(dataNode.toJSON() as Record<string, unknown>);
      } catch (error) {
        if (!(error instanceof MessageDataError)) throw error;
        at(findKey(dataNode, error.where.split('.')) ?? dataNode, `message_data.${error.where}`, error.reason);
      }
    }
  }
  if (decision) into.byPlural.set(plural, decision);
  into.options.set(plural, { selector, ...(pollIntervalMs !== undefined && { pollIntervalMs }), ...(messageData && { messageData }) });
}

/** The value node at a key path inside nested maps. */
function findKey(map: YAMLMap, path: readonly string[]): Node | undefined {
  let node: Node | undefined = map;
  for (const key of path) {
    if (!isMap(node)) return undefined;
    node = node.get(key, true) as Node | undefined;
  }
  return node;
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
      if (typeof expr?.value !== 'string')
        return void ((broken = true), at(expr ?? item, `${where}.expr`, 'is required (a CEL expression)'));
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
function position(
  text: string,
  lines: LineCounter,
  node: Node | undefined,
  inner?: { line?: number; column?: number },
): { line: number; column: number } {
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
  return inner.line <= 1
    ? { line: start.line, column: start.col + quote + inner.column - 1 }
    : { line: start.line + inner.line - 1, column: inner.column };
}
