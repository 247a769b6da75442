import type { ResourceBundle } from './resource-bundle.js';
import { parseSearch, SearchSyntaxError } from './search-filter.js';

const bundle = (source: string, consumer: string, labels: Record<string, string> = {}): ResourceBundle => ({
  id: `${source}-${consumer}`,
  kind: 'ResourceBundle',
  href: '',
  name: 'w',
  consumer_name: consumer,
  source,
  version: 1,
  created_at: '',
  updated_at: '',
  metadata: { name: 'w', labels },
  manifests: [],
});

describe('parseSearch: the subset a Maestro source work client sends', () => {
  const a = bundle('adapter', 'cluster1', { app: 'x', tier: 'db' });
  const b = bundle('adapter', 'cluster2', { app: 'x' });
  const c = bundle('other', 'cluster1');

  it.each<[string, ResourceBundle[]]>([
    ['', [a, b, c]],
    ["source='adapter'", [a, b]],
    ["source='adapter' and consumer_name='cluster1'", [a]],
    [`source='adapter' and payload->'metadata'->'labels'@>'{"app":"x"}'`, [a, b]],
    [`source = 'adapter' AND consumer_name = 'cluster1' and payload -> 'metadata' -> 'labels' @> '{"app":"x","tier":"db"}'`, [a]],
    [`payload->'metadata'->'labels'@>'{"app":"y"}'`, []],
    ["name='w' and id='other-cluster1'", [c]],
  ])('%s', (search, expected) => {
    expect([a, b, c].filter(parseSearch(search))).toEqual(expected);
  });

  it.each(["source='a' or source='b'", 'source=adapter', "labels.app='x'", "source='a' consumer_name='b'"])('refuses %s', (search) => {
    expect(() => parseSearch(search)).toThrow(SearchSyntaxError);
  });
});
