/**
 * HyperFleet condition mapping (hyperfleet-api `docs/condition-mapping.md`): rules compiled by
 * the entities config loader, evaluated by `mapConditions`. Table-driven over the doc's three examples
 * and the edge rules (Unknown filtered, masking, status/reason/message limits, times).
 */
import { EntitiesConfigError, parseEntitiesConfig } from '@decom/config';
import type { AdapterStatus, ConditionMappingRule, ResourceCondition } from '@decom/domain';
import { REDACTED, mapConditions, maskSensitive } from './condition-mapping.js';

const T0 = '2026-05-19T10:00:00.000Z';
const T1 = '2026-05-19T10:32:00.000Z';

/** Compiles `conditions` YAML (indented as the list under a Cluster entity) through the real loader. */
function rules(conditionsYaml: string, requiredAdapters = '[validation]'): ConditionMappingRule[] {
  const text = `entities:\n  - kind: Cluster\n    plural: clusters\n    required_adapters: ${requiredAdapters}\n    conditions:\n${conditionsYaml}`;
  return [...(parseEntitiesConfig(text, 'entities.yaml')[0]!.conditions ?? [])];
}

function configError(conditionsYaml: string): string {
  try {
    rules(conditionsYaml);
  } catch (error) {
    if (error instanceof EntitiesConfigError) return error.message;
    throw error;
  }
  throw new Error('expected an EntitiesConfigError');
}

function rule(type: string, when: string, status: string, reason: string, message: string): string {
  const block = (e: string) =>
    `|\n${e
      .split('\n')
      .map((l) => `              ${l}`)
      .join('\n')}`;
  return [
    `      - type: ${type}`,
    `        when:`,
    `          expression: ${block(when)}`,
    `        output:`,
    `          status:`,
    `            expression: ${block(status)}`,
    `          reason:`,
    `            expression: ${block(reason)}`,
    `          message:`,
    `            expression: ${block(message)}`,
    '',
  ].join('\n');
}

function status(adapter: string, conditions: [string, string, string?, string?][], data?: Record<string, unknown>): AdapterStatus {
  return {
    adapter,
    observed_generation: 5,
    conditions: conditions.map(([type, s, reason, message]) => ({
      type,
      status: s as 'True',
      ...(reason ? { reason } : {}),
      ...(message ? { message } : {}),
      last_transition_time: T0,
    })),
    ...(data ? { data } : {}),
    created_time: T0,
    last_report_time: T1,
  };
}

const rosa = (cp: string) =>
  `statuses.filter(s, s.adapter == "rosa-adapter")[0].conditions.filter(c, c.type == "ControlPlaneReady")[0].${cp}`;
const EXAMPLE_1 = rule(
  'ROSAControlPlaneReady',
  'statuses.exists(s, s.adapter == "rosa-adapter"\n  && s.conditions.exists(c, c.type == "ControlPlaneReady"))',
  rosa('status'),
  rosa('reason'),
  `"ROSA: " + ${rosa('message')}`,
);
const both = `${rosa('status')} == "True"\n&& statuses.filter(s, s.adapter == "dns-adapter")[0].conditions.filter(c, c.type == "Available")[0].status == "True"`;
const EXAMPLE_2 = rule(
  'ClusterHealthy',
  'statuses.exists(s, s.adapter == "rosa-adapter" && s.conditions.exists(c, c.type == "ControlPlaneReady"))\n&& statuses.exists(s, s.adapter == "dns-adapter" && s.conditions.exists(c, c.type == "Available"))',
  `${both}\n? "True" : "False"`,
  `${both}\n? "AllHealthy" : "Degraded"`,
  '"Cluster health based on ROSA control plane and DNS availability"',
);
const gcp = 'statuses.filter(s, s.adapter == "gcp-adapter")[0]';
const EXAMPLE_3 = rule(
  'GCPQuotaStatus',
  'statuses.exists(s, s.adapter == "gcp-adapter"\n  && s.conditions.exists(c, c.type == "QuotaAvailable")\n  && s.?data.?quotaRemaining.hasValue())',
  `${gcp}.?data.?quotaRemaining.orValue(0) > 10 ? "True" : "False"`,
  `${gcp}.?data.?quotaRemaining.orValue(0) > 10 ? "SufficientQuota" : "LowQuota"`,
  `"GCP quota remaining: " + string(${gcp}.?data.?quotaRemaining.orValue(0)) + " " + toJson(${gcp}.data)`,
);

const resource = { id: 'c1', kind: 'Cluster', name: 'prod', generation: 5, spec: { region: 'eu', pullSecret: 'xyz' } };

function run(yaml: string, statuses: AdapterStatus[], previous: ResourceCondition[] = [], now = T1) {
  return mapConditions({ rules: rules(yaml), statuses, resource, generation: 5, previous, now });
}

describe('condition mapping: evaluation', () => {
  const cases: { name: string; yaml: string; statuses: AdapterStatus[]; expected: Partial<ResourceCondition>[]; skipped?: string[] }[] = [
    {
      name: 'example 1: one-to-one transformation',
      yaml: EXAMPLE_1,
      statuses: [
        status('rosa-adapter', [
          ['Available', 'True', 'Ready', 'Ready'],
          ['ControlPlaneReady', 'True', 'Operational', 'Control plane is operational'],
        ]),
      ],
      expected: [
        {
          type: 'ROSAControlPlaneReady',
          status: 'True',
          reason: 'Operational',
          message: 'ROSA: Control plane is operational',
          observed_generation: 5,
        },
      ],
    },
    {
      name: 'example 2: cross-adapter aggregation, degraded',
      yaml: EXAMPLE_2,
      statuses: [status('rosa-adapter', [['ControlPlaneReady', 'True']]), status('dns-adapter', [['Available', 'False']])],
      expected: [
        {
          type: 'ClusterHealthy',
          status: 'False',
          reason: 'Degraded',
          message: 'Cluster health based on ROSA control plane and DNS availability',
        },
      ],
    },
    {
      name: 'example 2: cross-adapter aggregation, healthy',
      yaml: EXAMPLE_2,
      statuses: [status('rosa-adapter', [['ControlPlaneReady', 'True']]), status('dns-adapter', [['Available', 'True']])],
      expected: [{ type: 'ClusterHealthy', status: 'True', reason: 'AllHealthy' }],
    },
    {
      name: 'example 3: data extraction with safe navigation; sensitive keys masked before CEL',
      yaml: EXAMPLE_3,
      statuses: [
        status('gcp-adapter', [['QuotaAvailable', 'True']], { quotaRemaining: 25, internalProjectId: 'p-1', clientSecret: 'secret-12345' }),
      ],
      expected: [
        {
          type: 'GCPQuotaStatus',
          status: 'True',
          reason: 'SufficientQuota',
          message: `GCP quota remaining: 25 {"clientSecret":"${REDACTED}","internalProjectId":"p-1","quotaRemaining":25}`,
        },
      ],
    },
    {
      name: 'example 3: rule does not fire without the data field',
      yaml: EXAMPLE_3,
      statuses: [status('gcp-adapter', [['QuotaAvailable', 'True']], {})],
      expected: [],
    },
    {
      name: 'Unknown adapter conditions are filtered out before evaluation',
      yaml: EXAMPLE_1,
      statuses: [status('rosa-adapter', [['ControlPlaneReady', 'Unknown', 'Pending', 'not yet']])],
      expected: [],
    },
    {
      name: 'status is case-insensitive and normalised',
      yaml: rule('Lower', 'true', '"true"', '"R"', '"m"') + rule('Upper', 'true', '"FALSE"', '"R"', '"m"'),
      statuses: [],
      expected: [
        { type: 'Lower', status: 'True' },
        { type: 'Upper', status: 'False' },
      ],
    },
    {
      name: 'a status other than True/False skips the rule',
      yaml: rule('Maybe', 'true', '"Unknown"', '"R"', '"m"'),
      statuses: [],
      expected: [],
      skipped: ['Maybe'],
    },
    {
      name: 'a reason longer than 256 characters skips the rule',
      yaml: rule('LongReason', 'true', '"True"', '"x".repeat(257)'.replace('"x".repeat(257)', `"${'R'.repeat(257)}"`), '"m"'),
      statuses: [],
      expected: [],
      skipped: ['LongReason'],
    },
    {
      name: 'a message longer than 2048 characters is truncated',
      yaml: rule('LongMessage', 'true', '"True"', '"R"', `"${'m'.repeat(2100)}"`),
      statuses: [],
      expected: [{ type: 'LongMessage', message: 'm'.repeat(2048) }],
    },
    {
      name: 'an evaluation error skips only that rule',
      yaml: rule('Broken', 'statuses[0].nope == "x"', '"True"', '"R"', '"m"') + rule('Fine', 'true', '"True"', '"R"', '"ok"'),
      statuses: [status('rosa-adapter', [['Available', 'True']])],
      expected: [{ type: 'Fine', message: 'ok' }],
      skipped: ['Broken'],
    },
    {
      name: 'resource is masked too, dig() navigates it',
      yaml: rule('Region', 'true', '"True"', 'dig(resource, "spec.region")', 'resource.spec.pullSecret'),
      statuses: [],
      expected: [{ type: 'Region', reason: 'eu', message: REDACTED }],
    },
  ];
  it.each(cases)('$name', ({ yaml, statuses, expected, skipped }) => {
    const result = run(yaml, statuses);
    expect(result.conditions).toHaveLength(expected.length);
    expected.forEach((e, i) => expect(result.conditions[i]).toMatchObject(e));
    expect(result.skipped.map((s) => s.type)).toEqual(skipped ?? []);
  });

  it('sets the times: created once, updated on every evaluation, transition only on a status change', () => {
    const report = (cp: string) => [status('rosa-adapter', [['ControlPlaneReady', cp, 'Why', 'msg']])];
    const first = run(EXAMPLE_1, report('True'), [], T0).conditions[0]!;
    expect(first).toMatchObject({ status: 'True', created_time: T0, last_updated_time: T0, last_transition_time: T0 });
    const same = run(EXAMPLE_1, report('True'), [first], T1).conditions[0]!;
    expect(same).toMatchObject({ created_time: T0, last_updated_time: T1, last_transition_time: T0 });
    const T2 = '2026-05-19T11:00:00.000Z';
    const flipped = run(EXAMPLE_1, report('False'), [same], T2).conditions[0]!;
    expect(flipped).toMatchObject({ status: 'False', created_time: T0, last_updated_time: T2, last_transition_time: T2 });
  });

  it('keeps the previous condition of a rule skipped for this report', () => {
    const prev: ResourceCondition = {
      type: 'Maybe',
      status: 'True',
      reason: 'R',
      message: 'm',
      observed_generation: 4,
      created_time: T0,
      last_updated_time: T0,
      last_transition_time: T0,
    };
    const result = run(rule('Maybe', 'true', '"Unknown"', '"R"', '"m"'), [], [prev]);
    expect(result.conditions).toEqual([prev]);
    expect(result.skipped[0]!.reason).toContain('"True" or "False"');
  });

  it("masks HyperFleet's key patterns case-insensitively, recursively through maps and lists", () => {
    expect(
      maskSensitive({
        adminPassword: 'p',
        nested: [{ AccessToken: 't', name: 'n' }],
        tlsCert: 'c',
        connectionString: 's',
        region: 'eu',
        kubeconfigData: 'k',
      }),
    ).toEqual({
      adminPassword: REDACTED,
      nested: [{ AccessToken: REDACTED, name: 'n' }],
      tlsCert: REDACTED,
      connectionString: REDACTED,
      region: 'eu',
      kubeconfigData: REDACTED,
    });
  });
});

describe('condition mapping: rules refused at start-up with file:line:column', () => {
  const cases: { name: string; yaml: string; error: RegExp }[] = [
    {
      name: 'reserved Reconciled',
      yaml: rule('Reconciled', 'true', '"True"', '"R"', '"m"'),
      error: /^entities\.yaml:6:15 entities\[0\]\.conditions\[0\]\.type: "Reconciled" is a reserved condition type$/m,
    },
    {
      name: 'reserved LastKnownReconciled',
      yaml: rule('LastKnownReconciled', 'true', '"True"', '"R"', '"m"'),
      error: /conditions\[0\]\.type: "LastKnownReconciled" is a reserved/,
    },
    {
      name: 'reserved per-adapter type',
      yaml: rule('ValidationSuccessful', 'true', '"True"', '"R"', '"m"'),
      error: /"ValidationSuccessful" is a reserved condition type/,
    },
    {
      name: 'reserved Decom type',
      yaml: rule('DeletionBlocked', 'true', '"True"', '"R"', '"m"'),
      error: /"DeletionBlocked" is a reserved condition type/,
    },
    {
      name: 'duplicate type',
      yaml: rule('Same', 'true', '"True"', '"R"', '"m"') + rule('Same', 'true', '"True"', '"R"', '"m"'),
      error: /conditions\[1\]\.type: duplicate condition type "Same"/,
    },
    {
      name: 'type over 100 characters',
      yaml: rule('T'.repeat(101), 'true', '"True"', '"R"', '"m"'),
      error: /must be at most 100 characters, got 101/,
    },
    // The block's content is line 9 (after `expression: |` on line 8), indented 14; `)` is column 9 of the expression.
    {
      name: 'bad CEL, position inside the block scalar',
      yaml: rule('Bad', 'true && )', '"True"', '"R"', '"m"'),
      error: /^entities\.yaml:9:23 entities\[0\]\.conditions\[0\]\.when\.expression: invalid CEL expression: /m,
    },
    {
      name: 'unknown function',
      yaml: rule('Fn', 'true', 'nope(1)', '"R"', '"m"'),
      error: /^entities\.yaml:13:15 entities\[0\]\.conditions\[0\]\.output\.status\.expression: invalid CEL expression: .*nope/m,
    },
    {
      name: 'missing output field',
      yaml: '      - type: X\n        when: { expression: "true" }\n        output: { status: { expression: "\'True\'" } }\n',
      error: /conditions\[0\]\.output\.reason: must be a mapping with an expression/,
    },
    {
      name: 'unknown rule field',
      yaml: rule('U', 'true', '"True"', '"R"', '"m"').replace('        when:', '        colour: red\n        when:'),
      error: /conditions\[0\]\.colour: unknown field/,
    },
  ];
  it.each(cases)('$name', ({ yaml, error }) => {
    expect(configError(yaml)).toMatch(error);
  });

  it('compiles the doc examples (toJson, dig, optional navigation) and keeps them on the kind', () => {
    expect(rules(EXAMPLE_1 + EXAMPLE_2 + EXAMPLE_3).map((r) => r.type)).toEqual([
      'ROSAControlPlaneReady',
      'ClusterHealthy',
      'GCPQuotaStatus',
    ]);
    expect(parseEntitiesConfig('entities:\n  - kind: Cluster\n    plural: clusters\n', 'e.yaml')[0]!.conditions).toBeUndefined();
  });
});
