import type { ResourceBundle } from './resource-bundle.js';

/** The search is outside the subset this server understands. */
export class SearchSyntaxError extends Error {
  override readonly name = 'SearchSyntaxError';
}

type Term =
  | { readonly field: 'source' | 'consumer_name' | 'name' | 'id'; readonly value: string }
  | { readonly field: 'labels'; readonly labels: Readonly<Record<string, string>> };

const COLUMN = /^(source|consumer_name|name|id)\s*=\s*'((?:[^']|'')*)'/i;
const LABELS = /^payload\s*->\s*'metadata'\s*->\s*'labels'\s*@>\s*'((?:[^']|'')*)'/i;
const AND = /^\s+and\s+/i;

/**
 * Parses the part of Maestro's `search` parameter (SQL-like, over resource columns and the
 * JSONB payload) that a source work client sends: `source='x'`, `consumer_name='y'`, `name='z'`,
 * `id='…'` and the label containment `payload->'metadata'->'labels'@>'{"k":"v"}'`, joined by
 * `and`. Hand-rolled: Maestro's search is a TSL dialect with no JavaScript parser; this subset is
 * what maestro's grpcsource `List` emits (pkg/client/cloudevents/grpcsource/util.go ToLabelSearch).
 * @returns a predicate over bundles; the empty search matches everything.
 * @throws SearchSyntaxError for anything else (the server answers 400).
 */
export function parseSearch(search: string): (bundle: ResourceBundle) => boolean {
  const terms: Term[] = [];
  let rest = search.trim();
  while (rest.length > 0) {
    const column = COLUMN.exec(rest);
    const labels = column ? null : LABELS.exec(rest);
    if (column) {
      terms.push({ field: (column[1] as string).toLowerCase() as 'source', value: (column[2] as string).replace(/''/g, "'") });
      rest = rest.slice(column[0].length);
    } else if (labels) {
      terms.push({ field: 'labels', labels: parseLabels((labels[1] as string).replace(/''/g, "'")) });
      rest = rest.slice(labels[0].length);
    } else {
      throw new SearchSyntaxError(`unsupported search near ${JSON.stringify(rest.slice(0, 40))}`);
    }
    if (rest.trim().length === 0) break;
    const and = AND.exec(rest);
    if (!and) throw new SearchSyntaxError(`expected 'and' near ${JSON.stringify(rest.slice(0, 40))}`);
    rest = rest.slice(and[0].length);
  }
  return (bundle) => terms.every((term) => matches(term, bundle));
}

function parseLabels(json: string): Record<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new SearchSyntaxError(`label containment is not JSON: ${json}`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new SearchSyntaxError('label containment must be a JSON object');
  return parsed as Record<string, string>;
}

function matches(term: Term, bundle: ResourceBundle): boolean {
  if (term.field === 'labels') {
    const labels = ((bundle.metadata as { labels?: Record<string, string> }).labels ?? {}) as Record<string, string>;
    return Object.entries(term.labels).every(([k, v]) => labels[k] === v);
  }
  const actual =
    term.field === 'consumer_name'
      ? bundle.consumer_name
      : term.field === 'source'
        ? bundle.source
        : term.field === 'name'
          ? bundle.name
          : bundle.id;
  return actual === term.value;
}
