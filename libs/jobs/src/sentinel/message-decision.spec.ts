import { MessageDecisionError, compileMessageDecision, sentinelDefaultDecision } from './message-decision.js';

const NOW = new Date('2026-11-29T12:00:00Z');
const ago = (seconds: number) => new Date(NOW.getTime() - seconds * 1000).toISOString();
const resource = (
  generation: number,
  reconciled?: { status: 'True' | 'False'; observed_generation: number; updatedSecondsAgo: number },
) => ({
  id: 'c1',
  kind: 'Cluster',
  href: '/api/hyperfleet/v1/clusters/c1',
  generation,
  status: {
    conditions: reconciled
      ? [
          {
            type: 'Reconciled',
            status: reconciled.status,
            observed_generation: reconciled.observed_generation,
            last_updated_time: ago(reconciled.updatedSecondsAgo),
            last_transition_time: ago(reconciled.updatedSecondsAgo),
          },
        ]
      : [],
  },
});

describe("Sentinel's default message_decision", () => {
  const rule = compileMessageDecision(sentinelDefaultDecision());

  it.each([
    ['a new resource never reconciled (generation 1, no Reconciled time)', true, resource(1)],
    [
      'a generation the adapters have not reconciled yet (DELETE bumped it)',
      true,
      resource(3, { status: 'False', observed_generation: 2, updatedSecondsAgo: 1 }),
    ],
    [
      'Reconciled=False for 5 s: within the 10 s debounce',
      false,
      resource(2, { status: 'False', observed_generation: 2, updatedSecondsAgo: 5 }),
    ],
    ['Reconciled=False for 11 s: past the debounce', true, resource(2, { status: 'False', observed_generation: 2, updatedSecondsAgo: 11 })],
    ['Reconciled=True for 29 min: fresh', false, resource(2, { status: 'True', observed_generation: 2, updatedSecondsAgo: 29 * 60 })],
    [
      'Reconciled=True for 31 min: past the max age',
      true,
      resource(2, { status: 'True', observed_generation: 2, updatedSecondsAgo: 31 * 60 }),
    ],
    ['no conditions at generation 2: generation mismatch against the zero value', true, resource(2)],
  ])('%s → %s', (_what, expected, r) => {
    expect(rule.decide(r, NOW)).toBe(expected);
  });

  it('takes its durations as parameters', () => {
    const fast = compileMessageDecision(sentinelDefaultDecision({ debounce: '1s', maxAge: '1m' }));
    expect(fast.decide(resource(2, { status: 'False', observed_generation: 2, updatedSecondsAgo: 2 }), NOW)).toBe(true);
    expect(fast.decide(resource(2, { status: 'True', observed_generation: 2, updatedSecondsAgo: 61 }), NOW)).toBe(true);
  });

  it('lets a param keep its CEL type (a duration) for the params after it', () => {
    const custom = compileMessageDecision({
      params: [
        { name: 'age', expr: 'now - timestamp(condition("Reconciled").last_updated_time)' },
        { name: 'old', expr: "age > duration('1h')" },
      ],
      result: 'old || resource.kind == "NodePool"',
    });
    expect(custom.decide(resource(1, { status: 'True', observed_generation: 1, updatedSecondsAgo: 7200 }), NOW)).toBe(true);
    expect(custom.decide(resource(1, { status: 'True', observed_generation: 1, updatedSecondsAgo: 60 }), NOW)).toBe(false);
  });
});

describe('message_decision errors', () => {
  const fails = (config: Parameters<typeof compileMessageDecision>[0]) => {
    try {
      compileMessageDecision(config);
    } catch (error) {
      expect(error).toBeInstanceOf(MessageDecisionError);
      const e = error as MessageDecisionError;
      return [e.where, e.line, e.column, e.reason];
    }
    throw new Error('expected a MessageDecisionError');
  };

  it('names the param and the position of a compile error', () => {
    expect(
      fails({
        params: [
          { name: 'a', expr: 'true' },
          { name: 'b', expr: 'a &&\n  bogus(1)' },
        ],
        result: 'b',
      }),
    ).toEqual(['params[1].expr', 2, 3, expect.stringContaining('bogus')]);
    expect(fails({ params: [], result: 'resource.generation >' })).toEqual(['result', 1, expect.any(Number), expect.any(String)]);
  });

  it('wants condition() with a string literal, and param names that are CEL identifiers and not the rule variables', () => {
    expect(fails({ params: [{ name: 'x', expr: 'condition(resource.kind).status' }], result: 'x' })).toEqual([
      'params[0].expr',
      1,
      10,
      expect.stringContaining('string literal'),
    ]);
    expect(fails({ params: [{ name: 'is-new', expr: 'true' }], result: 'true' })[0]).toBe('params[0].name');
    expect(fails({ params: [{ name: 'now', expr: 'true' }], result: 'true' })[3]).toContain('variable of the rule');
    expect(
      fails({
        params: [
          { name: 'a', expr: 'true' },
          { name: 'a', expr: 'false' },
        ],
        result: 'a',
      })[3],
    ).toContain('twice');
  });

  it('refuses a result that is not a bool, per resource', () => {
    const rule = compileMessageDecision({ params: [], result: 'resource.generation' });
    expect(() => rule.decide(resource(2), NOW)).toThrow(/must be a bool, got 2/);
  });
});
