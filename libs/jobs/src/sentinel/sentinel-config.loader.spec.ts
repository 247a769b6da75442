import { resolve } from 'node:path';
import { SentinelConfigError, loadSentinelConfig, parseSentinelConfig } from './sentinel-config.loader.js';

const NOW = new Date('2026-11-29T12:00:00Z');
const pending = (secondsAgo: number) => ({
  id: 'c1',
  kind: 'Cluster',
  generation: 2,
  status: {
    conditions: [
      {
        type: 'Reconciled',
        status: 'False',
        observed_generation: 2,
        last_updated_time: new Date(NOW.getTime() - secondsAgo * 1000).toISOString(),
      },
    ],
  },
});
const errorsOf = (text: string) => {
  try {
    parseSentinelConfig(text, 'sentinel.yaml', ['clusters', 'nodepools']);
  } catch (error) {
    expect(error).toBeInstanceOf(SentinelConfigError);
    return (error as Error).message.split('\n');
  }
  throw new Error('expected a SentinelConfigError');
};

describe('sentinel.yaml', () => {
  it('loads the shipped config: clusters spell out the default rule, nodepools fall back to it', async () => {
    const rules = await loadSentinelConfig(resolve('config/sentinel.yaml'), ['clusters', 'nodepools']);
    expect([...rules.byPlural.keys()]).toEqual(['clusters']);
    for (const plural of ['clusters', 'nodepools']) {
      expect(rules.forPlural(plural).decide(pending(5), NOW)).toBe(false);
      expect(rules.forPlural(plural).decide(pending(11), NOW)).toBe(true);
    }
  });

  it('uses the default rule for every kind when the file does not exist', async () => {
    const rules = await loadSentinelConfig('/nonexistent/sentinel.yaml', ['clusters']);
    expect(rules.byPlural.size).toBe(0);
    expect(rules.forPlural('clusters').decide(pending(11), NOW)).toBe(true);
  });

  it('reports every problem as file:line:column field: message, CEL errors inside the expression', () => {
    expect(
      errorsOf(
        [
          'sentinels:',
          '  - resource_type: clusterz',
          '    message_decision: { result: "true" }',
          '  - resource_type: nodepools',
          '    poll_interval: 5s',
          '    message_decision:',
          '      params:',
          '        - name: a',
          '          expr: "resource.generation >"',
          '        - name: b',
          '          expr: |',
          '            a &&',
          '              nope(1)',
          '      result: b',
        ].join('\n'),
      ),
    ).toEqual([
      'sentinel.yaml:2:20 sentinels[0].resource_type: unknown resource type "clusterz" (configured: clusters, nodepools)',
      'sentinel.yaml:5:5 sentinels[1].poll_interval: unknown field (allowed: resource_type, message_decision)',
      expect.stringMatching(/^sentinel\.yaml:9:\d+ sentinels\[1\]\.message_decision\.params\[0\]\.expr: /),
    ]);
    expect(
      errorsOf(
        [
          'sentinels:',
          '  - resource_type: nodepools',
          '    message_decision:',
          '      params:',
          '        - name: b',
          '          expr: |',
          '            true &&',
          '              nope(1)',
          '      result: b',
        ].join('\n'),
      ),
    ).toEqual([expect.stringMatching(/^sentinel\.yaml:8:15 sentinels\[0\]\.message_decision\.params\[0\]\.expr: .*nope/)]);
    expect(errorsOf('sentinels:\n  - resource_type: clusters\n')).toEqual([
      'sentinel.yaml:2:5 sentinels[0].message_decision: is required: { params: [{name, expr}...], result: <CEL bool> }',
    ]);
  });
});
