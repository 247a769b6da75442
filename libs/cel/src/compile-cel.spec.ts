import { CelCompileError, CelEvalError, compileCel, evaluateCel } from './index.js';

/** A fixed clock is a real clock, not a mock. */
const NOW = new Date('2026-03-01T12:00:00.250Z');
const fixedClock = () => NOW;

type Row = readonly [expression: string, vars: Record<string, unknown>, expected: unknown];

function run(rows: readonly Row[]): void {
  it.each(rows)('%s', (expression, vars, expected) => {
    expect(evaluateCel(expression, vars, { now: fixedClock })).toEqual(expected);
  });
}

describe('values in and out', () => {
  run([
    ['generation', { generation: 2 }, 2],
    ['generation == 2', { generation: 2 }, true],
    ['generation + 1', { generation: 2 }, 3],
    ['generation / 2', { generation: 5 }, 2], // int division: the JSON integer is a CEL int
    ['ratio * 2.0', { ratio: 1.25 }, 2.5],
    ['type(generation) == int && type(ratio) == double', { generation: 2, ratio: 0.5 }, true],
    ['big + 1', { big: 2 ** 53 }, 9007199254740993n], // beyond 2^53: bigint keeps it exact
    ['9223372036854775807', {}, 9223372036854775807n],
    ['1u + 2u', {}, 3],
    ['{"a": [1, "b", null], "c": {"d": true}}', {}, { a: [1, 'b', null], c: { d: true } }],
    ['m', { m: new Map([['k', 1]]) }, { k: 1 }],
    ['obj.present', { obj: { present: 1, absent: undefined } }, 1],
    ['has(obj.absent)', { obj: { present: 1, absent: undefined } }, false],
    ['timestamp("2026-01-02T03:04:05Z")', {}, new Date('2026-01-02T03:04:05Z')],
    ['t + duration("1h")', { t: new Date('2026-01-02T03:04:05Z') }, new Date('2026-01-02T04:04:05Z')],
    ['duration("90s")', {}, '90s'],
    ['duration("1500ms")', {}, '1.5s'],
    ['type("x")', {}, 'string'],
    ['b"hi"', {}, new Uint8Array([104, 105])],
    ['m.?a', { m: { a: 'x' } }, 'x'],
    ['m.?b', { m: { a: 'x' } }, null],
  ]);

  it('does not modify the variables it is given', () => {
    const vars = { conditions: [{ type: 'Ready', n: 1 }] };
    const before = JSON.stringify(vars);
    evaluateCel('conditions.map(c, c.n + 1)', vars);
    expect(JSON.stringify(vars)).toBe(before);
  });
});

describe('optional types', () => {
  run([
    ['a.?b.hasValue()', { a: { b: 1 } }, true],
    ['a.?b.hasValue()', { a: {} }, false],
    ['a.?b.orValue(7)', { a: {} }, 7],
    ['a.?b.?c.orValue("none")', { a: { b: { c: 'deep' } } }, 'deep'],
    ['a.?b.?c.orValue("none")', { a: {} }, 'none'],
    ['a[?"k"].orValue(0)', { a: { k: 3 } }, 3],
    ['xs[?5].orValue(-1)', { xs: [1, 2] }, -1],
    ['optional.of(1).hasValue()', {}, true],
    ['optional.none().hasValue()', {}, false],
    ['optional.none().orValue("d")', {}, 'd'],
    ['optional.of(null).hasValue()', {}, true],
    // The seed's "CEL resource presence pattern": the three states of a resources key.
    ['resources.?clusterJob.hasValue()', { resources: {} }, false], // key absent (deleted or never processed)
    ['resources.?clusterJob.hasValue()', { resources: { clusterJob: { kind: 'Job' } } }, true], // object present
    // Key present with null: TRUE by the CEL spec (optional.of(null) has a value). That is why the
    // executor never puts null into `resources` and leaves absent objects' keys out instead.
    ['resources.?clusterJob.hasValue()', { resources: { clusterJob: null } }, true],
    ["{'k': null}.?k.hasValue()", {}, true],
  ]);
});

describe('deleted_time and has() (seed 000 required cases)', () => {
  run([
    ['deleted_time != null', { deleted_time: null }, false],
    ['deleted_time != null', { deleted_time: '2026-01-01T00:00:00Z' }, true],
    ['has(m.deleted_time)', { m: { id: 'c1' } }, false],
    ['has(m.deleted_time)', { m: { id: 'c1', deleted_time: '2026-01-01T00:00:00Z' } }, true],
    ['has(m.deleted_time)', { m: { id: 'c1', deleted_time: null } }, true], // CEL: key presence
  ]);
});

describe("Decom deviation: has() is false when an intermediate is absent (seed's Applied/Available)", () => {
  run([
    ['has(resources.clusterConfigMap.metadata.resourceVersion)', { resources: {} }, false],
    ['has(resources.clusterConfigMap.metadata.resourceVersion)', { resources: { clusterConfigMap: {} } }, false],
    ['has(resources.clusterConfigMap.metadata.resourceVersion)', { resources: { clusterConfigMap: { metadata: null } } }, false],
    [
      'has(resources.clusterConfigMap.metadata.resourceVersion)',
      { resources: { clusterConfigMap: { metadata: { resourceVersion: '42' } } } },
      true,
    ],
    ['items.exists(i, has(i.spec.replicas))', { items: [{ name: 'a' }, { spec: { replicas: 1 } }] }, true],
    ['items.all(i, has(i.spec.replicas))', { items: [{ name: 'a' }, { spec: { replicas: 1 } }] }, false],
  ]);

  it('still fails on a direct access to the absent object (standard CEL)', () => {
    expect(() => evaluateCel('resources.clusterConfigMap.metadata == null', { resources: {} })).toThrow(/No such key: clusterConfigMap/);
  });

  it('still fails on an unknown variable and on selecting a field of a string', () => {
    expect(() => evaluateCel('has(nothing.a.b)', {})).toThrow(CelEvalError);
    expect(() => evaluateCel('has(s.a.b)', { s: 'text' })).toThrow(/cannot select field 'a' of a string/);
  });
});

describe('strings extension', () => {
  run([
    ['"hello".charAt(1)', {}, 'e'],
    ['"hello".charAt(5)', {}, ''],
    ['"héllo".charAt(1)', {}, 'é'],
    ['"hello world".indexOf("o")', {}, 4],
    ['"hello world".indexOf("o", 5)', {}, 7],
    ['"hello world".lastIndexOf("o")', {}, 7],
    ['"Hello".lowerAscii()', {}, 'hello'],
    ['"Hello".upperAscii()', {}, 'HELLO'],
    ['"hello hello".replace("he", "we")', {}, 'wello wello'],
    ['"hello hello".replace("he", "we", 1)', {}, 'wello hello'],
    ['"hello hello".replace("he", "we", -1)', {}, 'wello wello'],
    ['"ab".replace("", "-")', {}, '-a-b-'],
    ['"a,b,c".split(",")', {}, ['a', 'b', 'c']],
    ['"a,b,c".split(",", 2)', {}, ['a', 'b,c']],
    ['"hello".substring(1)', {}, 'ello'],
    ['"hello".substring(1, 3)', {}, 'el'],
    ['"  x \\t".trim()', {}, 'x'],
    ['["a", "b"].join()', {}, 'ab'],
    ['["a", "b"].join("-")', {}, 'a-b'],
    ['names.join(",")', { names: ['x', 'y'] }, 'x,y'],
    ['strings.quote("say \\"hi\\"\\n")', {}, '"say \\"hi\\"\\n"'],
    ['string(timestamp("2026-01-02T03:04:05Z"))', {}, '2026-01-02T03:04:05Z'],
    ['string(timestamp("2026-01-02T03:04:05.500Z"))', {}, '2026-01-02T03:04:05.5Z'],
    ['string(t)', { t: new Date('2026-01-02T03:04:05.120Z') }, '2026-01-02T03:04:05.12Z'],
    ['string(duration("1m30s"))', {}, '90s'],
  ]);

  it('charAt beyond the end is an error', () => {
    expect(() => evaluateCel('"abc".charAt(4)', {})).toThrow(/index out of range/);
  });
});

describe('lists extension', () => {
  run([
    ['[1, 2, 2, 3, 1].distinct()', {}, [1, 2, 3]],
    ['[1, 1.0, 1u, "1"].distinct()', {}, [1, '1']],
    ['[{"a": 1}, {"a": 1}, {"a": 2}].distinct()', {}, [{ a: 1 }, { a: 2 }]],
    ['[3, 1, 2].sort()', {}, [1, 2, 3]],
    ['["b", "a", "C"].sort()', {}, ['C', 'a', 'b']],
    ['tags.distinct().sort()', { tags: ['b', 'a', 'b'] }, ['a', 'b']],
    [
      'pools.sortBy(p, p.replicas).map(p, p.name)',
      {
        pools: [
          { name: 'x', replicas: 3 },
          { name: 'y', replicas: 1 },
        ],
      },
      ['y', 'x'],
    ],
    [
      'pools.sortBy(p, -p.replicas).map(p, p.name)',
      {
        pools: [
          { name: 'x', replicas: 3 },
          { name: 'y', replicas: 1 },
        ],
      },
      ['x', 'y'],
    ],
    ['[[2, "b"], [1, "a"], [2, "a"]].sortBy(e, e[0]).map(e, e[1])', {}, ['a', 'b', 'a']], // stable
    ['[1, 2, 3, 4].slice(1, 3)', {}, [2, 3]],
    ['[1, 2].slice(2, 2)', {}, []],
    ['[1, [2, [3, 4]]].flatten()', {}, [1, 2, [3, 4]]],
    ['[1, [2, [3, [4]]]].flatten(2)', {}, [1, 2, 3, [4]]],
    ['conditions.map(c, [c.type, c.status]).flatten()', { conditions: [{ type: 'A', status: 'True' }] }, ['A', 'True']],
    ['lists.range(4)', {}, [0, 1, 2, 3]],
    ['lists.range(0)', {}, []],
  ]);

  it.each([
    ['[1, "a"].sort()', /same type/],
    ['[1, 2].slice(1, 3)', /list is length 2/],
    ['[1, 2].slice(2, 1)', /start index must be less than or equal/],
    ['[1].flatten(-1)', /non-negative/],
  ])('%s fails', (expression, message) => {
    expect(() => evaluateCel(expression, {})).toThrow(message);
  });
});

const conditions = [
  { type: 'Ready', status: 'True', last_transition_time: '2026-03-01T11:55:00Z' },
  { type: 'Available', status: 'False', last_transition_time: '2026-03-01T11:59:59.900Z' },
  { type: 'Progressing', status: 'True' },
];

describe('HyperFleet custom functions', () => {
  run([
    ['now()', {}, '2026-03-01T12:00:00Z'],
    ['timestamp(now()) == timestamp("2026-03-01T12:00:00Z")', {}, true],
    ['toJson(m)', { m: { b: 1, a: [true, null, 'x<y'], c: 1.5 } }, '{"a":[true,null,"x\\u003cy"],"b":1,"c":1.5}'],
    ['toJson({"t": timestamp("2026-01-02T03:04:05Z"), "d": duration("2s")})', {}, '{"d":2000000000,"t":"2026-01-02T03:04:05Z"}'],
    ['toJson("a\\nb")', {}, '"a\\nb"'],
    ['dig(obj, "a.b.0.c")', { obj: { a: { b: [{ c: 'found' }] } } }, 'found'],
    ['dig(obj, "a.b.1.c")', { obj: { a: { b: [{ c: 'found' }] } } }, null],
    ['dig(obj, "a.missing")', { obj: { a: {} } }, null],
    ['dig(obj, "")', { obj: { a: 1 } }, { a: 1 }],
    ['dig(obj, "a.n") + 1', { obj: { a: { n: 41 } } }, 42],
    ['conditionStatus(conditions, "Ready")', { conditions }, 'True'],
    ['conditionStatus(conditions, "Available")', { conditions }, 'False'],
    ['conditionStatus(conditions, "Reconciled")', { conditions }, 'Unknown'],
    ['conditionStatus(null, "Ready")', {}, 'Unknown'],
    ['conditionAge(conditions, "Ready")', { conditions }, 300],
    ['conditionAge(conditions, "Available")', { conditions }, 0],
    ['conditionAge(conditions, "Progressing")', { conditions }, -1],
    ['conditionAge(conditions, "Reconciled")', { conditions }, -1],
    ['conditionAge(k8s, "Ready")', { k8s: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-03-01T11:59:00Z' }] }, 60],
    ['stableFor(conditions, "Ready", 300)', { conditions }, true],
    ['stableFor(conditions, "Ready", 301)', { conditions }, false],
    ['stableFor(conditions, "Available", 0)', { conditions }, false],
    ['stableFor(conditions, "Progressing", 0)', { conditions }, false],
    [
      'statusFeedbackValue(feedback, "phase")',
      { feedback: { values: [{ name: 'phase', fieldValue: { type: 'String', string: 'Active' } }] } },
      'Active',
    ],
    [
      'statusFeedbackValue(feedback, "phase")',
      { feedback: [{ name: 'phase', fieldValue: { type: 'String', string: 'Active' } }] },
      'Active',
    ],
    [
      'statusFeedbackValue(feedback, "replicas")',
      { feedback: { values: [{ name: 'replicas', fieldValue: { type: 'Integer', integer: 3 } }] } },
      '',
    ],
    ['statusFeedbackValue(feedback, "phase")', { feedback: { values: [] } }, ''],
    ['statusFeedbackValue(feedback, "phase")', { feedback: {} }, ''],
    ['triState(true, false)', {}, 'True'],
    ['triState(true, true)', {}, 'True'],
    ['triState(false, true)', {}, 'False'],
    ['triState(false, false)', {}, 'Unknown'],
  ]);

  it('evaluates the same compiled expression with different clocks', () => {
    const age = compileCel('conditionAge(conditions, "Ready")');
    expect(age.evaluate({ conditions }, { now: () => new Date('2026-03-01T11:56:00Z') })).toBe(60);
    expect(age.evaluate({ conditions }, { now: fixedClock })).toBe(300);
  });

  it('uses the system clock by default', () => {
    const before = Date.now();
    const at = Date.parse(evaluateCel('now()', {}) as string);
    expect(at).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(at).toBeLessThanOrEqual(Date.now());
  });

  it('rejects an unparseable last_transition_time', () => {
    expect(() => evaluateCel('conditionAge(c, "A")', { c: [{ type: 'A', last_transition_time: 'yesterday' }] })).toThrow(
      /invalid last_transition_time "yesterday"/,
    );
  });
});

describe('compile errors carry the 1-based position inside the expression', () => {
  it.each([
    ['1 +', 1, 4],
    ['a &&\n  b ==', 2, 7],
    ['a.b)', 1, 4],
    ['foo(1)', 1, 1],
    ['x == 1 &&\n  has(y)', 2, 7], // points at the argument that is not a field selection
    ['c ? 1 : "a"', 1, 1],
    ['conditionAge("x", "Ready")', 1, 14],
    ['xs.sortBy(1, 2)', 1, 11],
  ])('%j → %i:%i', (expression, line, column) => {
    let error: unknown;
    try {
      compileCel(expression);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CelCompileError);
    expect(error).toMatchObject({ line, column, expression });
  });

  it('names the unknown function', () => {
    expect(() => compileCel('lenght(x)')).toThrow(/found no matching overload for 'lenght/);
  });
});

describe('evaluation errors are thrown and name the problem', () => {
  it.each([
    ['m.missing', { m: {} }, /No such key: missing/],
    ['nope == 1', {}, /Unknown variable: nope/],
    ['s + 1', { s: 'a' }, /no such overload: dyn<string> \+ int/],
    ['1 / zero', { zero: 0 }, /division by zero/],
    ['triState(flag, false)', { flag: 'yes' }, /no matching overload/],
    ['x == 1', { x: () => 1 }, /unsupported function value at x/],
  ])('%s', (expression, vars, message) => {
    let error: unknown;
    try {
      evaluateCel(expression, vars);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(CelEvalError);
    expect((error as CelEvalError).message).toMatch(message);
    expect((error as CelEvalError).expression).toBe(expression);
  });

  it('reports where in the expression it failed', () => {
    expect(() => evaluateCel('true &&\n  m.missing', { m: {} })).toThrow(/No such key: missing at 2:5/);
  });
});

describe('compile once, evaluate many', () => {
  it('keeps the source and evaluates against each activation independently', () => {
    const compiled = compileCel('resources.?clusterJob.hasValue() ? "present" : "absent"');
    expect(compiled.source).toBe('resources.?clusterJob.hasValue() ? "present" : "absent"');
    expect(compiled.evaluate({ resources: { clusterJob: {} } })).toBe('present');
    expect(compiled.evaluate({ resources: {} })).toBe('absent');
    expect(compiled.evaluate({ resources: { clusterJob: {} } })).toBe('present');
  });

  it('dispatches on the runtime types of each evaluation', () => {
    const compiled = compileCel('x + x');
    expect(compiled.evaluate({ x: 2 })).toBe(4);
    expect(compiled.evaluate({ x: 'ab' })).toBe('abab');
    expect(() => compiled.evaluate({ x: true })).toThrow(CelEvalError);
    expect(compiled.evaluate({ x: [1] })).toEqual([1, 1]);
  });

  it('hooks now() and has() inside macros too', () => {
    expect(evaluateCel('[1, 2].map(i, now())', {}, { now: fixedClock })).toEqual(['2026-03-01T12:00:00Z', '2026-03-01T12:00:00Z']);
    expect(evaluateCel('items.filter(i, has(i.spec.replicas)).size()', { items: [{}, { spec: { replicas: 2 } }] })).toBe(1);
    expect(evaluateCel('cel.bind(t, now(), t + "!")', {}, { now: fixedClock })).toBe('2026-03-01T12:00:00Z!');
  });
});

describe('variables named like CEL built-ins', () => {
  it('are left out of the activation: other expressions still evaluate, the name keeps meaning the built-in', () => {
    expect(compileCel('x == 1').evaluate({ x: 1, list: [1], int: 5, type: 'a' })).toBe(true);
    expect(compileCel('int("7") + 1').evaluate({ int: 5 })).toBe(8);
  });
});

describe('only the variables an expression names are converted', () => {
  it('a variable the expression does not name is neither converted nor checked; one it names (also inside a macro) is', () => {
    const compiled = compileCel('items.exists(s, s.adapter == want) && has(resources.ns)');
    let reads = 0;
    const vars = {
      items: [{ adapter: 'validation' }],
      want: 'validation',
      resources: { ns: {} },
      get env() {
        reads += 1;
        return { HOME: '/root' };
      },
      unused: () => 1,
    };
    expect(compiled.evaluate(vars)).toBe(true);
    expect(reads).toBe(0);
    expect(() => compileCel('unused == 1').evaluate(vars)).toThrow(/unsupported function value at unused/);
  });
});
