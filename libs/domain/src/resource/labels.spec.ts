import { labelKeyProblem, labelViolations } from './labels.js';

describe("labels follow Kubernetes' label syntax", () => {
  it.each(['team', 'app.kubernetes.io/name', 'example.com/team_a-1.b', 'a', `${'k'.repeat(63)}`, `${'p'.repeat(63)}.example.com/x`])(
    'accepts the key %s',
    (key) => {
      expect(labelKeyProblem(key)).toBeUndefined();
    },
  );

  it.each([
    ['', 'must have a name'],
    ['a b', 'must be letters'],
    ['team!', 'must be letters'],
    ['-team', 'must be letters'],
    ['team.', 'must be letters'],
    ['k'.repeat(64), 'must have a name of 1..63'],
    ['/team', 'invalid prefix'],
    ['Example.com/team', 'invalid prefix'],
    ['a b/c!', 'invalid prefix'],
    [`${'p'.repeat(254)}/x`, 'invalid prefix'],
    ['example.com/', 'must have a name'],
  ])('refuses the key %j (%s)', (key, problem) => {
    expect(labelKeyProblem(key)).toContain(problem);
  });

  it('checks values: empty or a name of at most 63 characters, strings only', () => {
    expect(labelViolations({ a: '', b: 'v1.2_x-y', c: 'V' })).toEqual([]);
    expect(labelViolations({ a: 'has space', b: 'v'.repeat(64), c: 7, d: '-x' }).map((v) => [v.field, v.constraint])).toEqual([
      ['labels.a', 'pattern'],
      ['labels.b', 'max_length'],
      ['labels.c', 'format'],
      ['labels.d', 'pattern'],
    ]);
  });

  it('never quotes more than 64 characters of a key or value back', () => {
    const [violation] = labelViolations({ ['x'.repeat(5_000)]: 'v' });
    expect(violation!.field.length).toBeLessThan(80);
    expect(violation!.message.length).toBeLessThan(400);
  });
});
