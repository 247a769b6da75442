/**
 * Loads the HyperFleet-style `entities` config into `KindDescriptor`s, with
 * `file:line:column field: message` errors for every problem at once.
 */
import { readFile } from 'node:fs/promises';
import { LineCounter, parseDocument, isMap, isSeq, type Node } from 'yaml';
import { PROPAGATION_POLICIES, isPropagationPolicy, type KindDescriptor } from '@decom/domain';
import { parseConditionRules } from './condition-rules-config.js';

export class EntitiesConfigError extends Error {
  override readonly name = 'EntitiesConfigError';
  constructor(readonly issues: readonly string[]) {
    super(issues.join('\n'));
  }
}

const KIND_KEYS = new Set([
  'kind',
  'plural',
  'parent_kind',
  'on_parent_delete',
  'required_adapters',
  'name_min_len',
  'name_max_len',
  'spec_schema_name',
  'references',
  'conditions',
  'require_spec_schema',
  'deletion_timeout_seconds',
  'deletion_propagation',
  'verify_cleanup',
]);

/** @throws EntitiesConfigError listing every issue as `file:line:column field: message`. */
export function parseEntitiesConfig(text: string, file: string): KindDescriptor[] {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  const issues: string[] = [];
  const at = (node: Node | null | undefined, field: string, message: string) => {
    const offset = node?.range?.[0] ?? 0;
    const { line, col } = lineCounter.linePos(offset);
    issues.push(`${file}:${line}:${col} ${field}: ${message}`);
  };
  for (const error of doc.errors) {
    const { line, col } = lineCounter.linePos(error.pos[0]);
    issues.push(`${file}:${line}:${col} (yaml): ${error.message.split('\n')[0]}`);
  }
  if (issues.length > 0) throw new EntitiesConfigError(issues);
  const root = doc.contents;
  const entities = isMap(root) ? root.get('entities', true) : undefined;
  if (!isSeq(entities)) {
    at(root as Node, 'entities', 'must be a list of entity descriptors');
    throw new EntitiesConfigError(issues);
  }
  const out: KindDescriptor[] = [];
  const sourceIndex: number[] = [];
  entities.items.forEach((item, i) => {
    const path = `entities[${i}]`;
    if (!isMap(item)) return at(item as Node, path, 'must be a mapping');
    for (const pair of item.items) {
      const key = String((pair.key as { value?: unknown }).value);
      if (!KIND_KEYS.has(key)) at(pair.key as Node, `${path}.${key}`, 'unknown field');
    }
    const value = item.toJSON() as Record<string, unknown>;
    const str = (key: string, required: boolean) => {
      const v = value[key];
      if (v === undefined && !required) return undefined;
      if (typeof v !== 'string' || v === '') {
        at((item.get(key, true) as Node) ?? item, `${path}.${key}`, 'must be a non-empty string');
        return undefined;
      }
      return v;
    };
    const kind = str('kind', true);
    const plural = str('plural', true);
    const parent = str('parent_kind', false);
    const onParentDelete = value['on_parent_delete'];
    if (onParentDelete !== undefined && onParentDelete !== 'cascade' && onParentDelete !== 'restrict') {
      at(
        item.get('on_parent_delete', true) as Node,
        `${path}.on_parent_delete`,
        `must be cascade or restrict, got "${String(onParentDelete)}"`,
      );
    }
    // Name limits: whole numbers of characters within Kubernetes' 253, min ≤ max (a typo must not start an
    // engine that accepts any name length).
    const lengths: Record<string, number | undefined> = {};
    for (const key of ['name_min_len', 'name_max_len']) {
      const length = value[key];
      if (length === undefined) continue;
      if (typeof length !== 'number' || !Number.isInteger(length) || length < 1 || length > 253) {
        at(item.get(key, true) as Node, `${path}.${key}`, `must be an integer from 1 to 253 (characters), got ${JSON.stringify(length)}`);
      } else lengths[key] = length;
    }
    if (
      lengths['name_min_len'] !== undefined &&
      lengths['name_max_len'] !== undefined &&
      lengths['name_min_len'] > lengths['name_max_len']
    ) {
      at(
        item.get('name_min_len', true) as Node,
        `${path}.name_min_len`,
        `must not exceed name_max_len (${lengths['name_max_len']}), got ${lengths['name_min_len']}`,
      );
    }
    if (value['require_spec_schema'] !== undefined && typeof value['require_spec_schema'] !== 'boolean') {
      at(
        item.get('require_spec_schema', true) as Node,
        `${path}.require_spec_schema`,
        `must be true or false, got ${JSON.stringify(value['require_spec_schema'])}`,
      );
    }
    if (value['spec_schema_name'] !== undefined) str('spec_schema_name', false);
    const timeout = value['deletion_timeout_seconds'];
    if (timeout !== undefined && (typeof timeout !== 'number' || !Number.isInteger(timeout) || timeout <= 0)) {
      at(item.get('deletion_timeout_seconds', true) as Node, `${path}.deletion_timeout_seconds`, 'must be a positive integer (seconds)');
    }
    // Verify before hard delete (docs/policies.md): on unless turned off; a typo must not turn it off silently.
    const verifyCleanup = value['verify_cleanup'];
    if (verifyCleanup !== undefined && typeof verifyCleanup !== 'boolean') {
      at(item.get('verify_cleanup', true) as Node, `${path}.verify_cleanup`, `must be true or false, got ${JSON.stringify(verifyCleanup)}`);
    }
    const propagation = value['deletion_propagation'];
    if (propagation !== undefined && !isPropagationPolicy(propagation)) {
      at(
        item.get('deletion_propagation', true) as Node,
        `${path}.deletion_propagation`,
        `must be ${PROPAGATION_POLICIES.join(' or ')}, got "${String(propagation)}"`,
      );
    }
    const adapters = value['required_adapters'] ?? [];
    if (!Array.isArray(adapters) || adapters.some((a) => typeof a !== 'string' || a === '')) {
      at((item.get('required_adapters', true) as Node) ?? item, `${path}.required_adapters`, 'must be a list of adapter names');
    }
    // Condition mapping rules (hyperfleet-api `docs/condition-mapping.md`) compile now: a bad rule stops the start.
    const conditions = parseConditionRules(item.get('conditions', true), path, Array.isArray(adapters) ? (adapters as string[]) : [], {
      text,
      lineCounter,
      file,
      issues,
    });
    if (kind && plural) {
      sourceIndex.push(i);
      out.push({
        kind,
        plural,
        ...(parent ? { parent_kind: parent } : {}),
        ...(onParentDelete === 'cascade' || onParentDelete === 'restrict' ? { on_parent_delete: onParentDelete } : {}),
        required_adapters: Array.isArray(adapters) ? (adapters as string[]) : [],
        ...(lengths['name_min_len'] !== undefined ? { name_min_len: lengths['name_min_len'] } : {}),
        ...(lengths['name_max_len'] !== undefined ? { name_max_len: lengths['name_max_len'] } : {}),
        ...(typeof value['deletion_timeout_seconds'] === 'number' ? { deletion_timeout_seconds: value['deletion_timeout_seconds'] } : {}),
        ...(isPropagationPolicy(propagation) ? { deletion_propagation: propagation } : {}),
        ...(conditions.length > 0 ? { conditions } : {}),
        ...(verifyCleanup === false ? { verify_cleanup: false } : {}),
      });
    }
  });
  const kinds = new Set(out.map((d) => d.kind));
  const seen = new Set<string>();
  out.forEach((d, n) => {
    const i = sourceIndex[n]!;
    const item = entities.items[i] as import('yaml').YAMLMap;
    if (d.parent_kind && !kinds.has(d.parent_kind)) {
      at(item.get('parent_kind', true) as Node, `entities[${i}].parent_kind`, `unknown kind "${d.parent_kind}"`);
    }
    if (seen.has(d.plural)) at(item.get('plural', true) as Node, `entities[${i}].plural`, `duplicate plural "${d.plural}"`);
    seen.add(d.plural);
  });
  // A parent chain that comes back to a kind makes every kind on it a child of a child: none could ever be
  // created (the root of a tree must be top-level), so the file is refused where the loop closes.
  const parentOf = new Map(out.map((d) => [d.kind, d.parent_kind]));
  out.forEach((d, n) => {
    const chain = [d.kind];
    for (let parent = d.parent_kind; parent !== undefined && kinds.has(parent); parent = parentOf.get(parent)) {
      if (parent === d.kind) {
        const i = sourceIndex[n]!;
        const item = entities.items[i] as import('yaml').YAMLMap;
        at(
          item.get('parent_kind', true) as Node,
          `entities[${i}].parent_kind`,
          `parent kinds form a cycle: ${[...chain, parent].join(' → ')}`,
        );
        break;
      }
      if (chain.includes(parent)) break; // a cycle further up, reported at its own kinds
      chain.push(parent);
    }
  });
  if (issues.length > 0) throw new EntitiesConfigError(issues);
  return out;
}

export async function loadEntitiesConfig(file: string): Promise<KindDescriptor[]> {
  return parseEntitiesConfig(await readFile(file, 'utf8'), file);
}
