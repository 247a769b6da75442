import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAdapterDirectory } from './adapter-directory.loader.js';
import { parseAdapterConfig } from './adapter-config.parser.js';
import { formatConfigIssue, TaskConfigError } from './task-config-error.js';
import { loadTaskConfigFile, parseTaskConfig } from './task-config.parser.js';

/** A resource with everything required, for cases that break one other thing. */
const NS = `manifest: {apiVersion: v1, kind: Namespace, metadata: {name: x}}\n    discovery: {by_name: x}`;

/** Errors with `strict` (unknown CEL variables are errors: `adapter validate --strict`). */
function errorsOf(yaml: string): string[] {
  try {
    parseTaskConfig(yaml, 't.yaml', { strict: true });
  } catch (error) {
    if (error instanceof TaskConfigError) return error.message.split('\n');
    throw error;
  }
  return [];
}

describe('parseTaskConfig: errors read like a compiler (file:line:column path: message)', () => {
  it.each<[string, string, string[]]>([
    ['unknown top-level key (strict decoding)', `params: []\nresourcez: []\n`, ['t.yaml:2:1 resourcez: unknown field']],
    [
      'lifecycle.delete without when (seed: "validator rejects configs where it is absent")',
      `resources:\n  - name: ns\n    ${NS}\n    lifecycle:\n      delete:\n        propagationPolicy: Background\n`,
      ['t.yaml:7:9 resources[0].lifecycle.delete.when: is required'],
    ],
    [
      'when without expression',
      `resources:\n  - name: ns\n    ${NS}\n    lifecycle:\n      delete:\n        when: {}\n`,
      ['t.yaml:7:15 resources[0].lifecycle.delete.when.expression: is required'],
    ],
    [
      'propagationPolicy outside the enum',
      `resources:\n  - name: ns\n    ${NS}\n    lifecycle:\n      delete:\n        propagationPolicy: Cascade\n        when: {expression: "true"}\n`,
      ['t.yaml:7:28 resources[0].lifecycle.delete.propagationPolicy: must be one of Background, Foreground, Orphan, got "Cascade"'],
    ],
    [
      'lifecycle.delete.policy and lifecycle.create.adoptionPolicy outside their enums (Decom, seed 003)',
      `resources:\n  - name: ns\n    ${NS}\n    lifecycle:\n      create: {adoptionPolicy: Steal}\n      delete:\n        policy: Keep\n        when: {expression: "true"}\n`,
      [
        't.yaml:6:32 resources[0].lifecycle.create.adoptionPolicy: must be one of Adopt, AdoptIfMatching, FailIfExists, AdoptReleased, got "Steal"',
        't.yaml:8:17 resources[0].lifecycle.delete.policy: must be one of Delete, Orphan, got "Keep"',
      ],
    ],
    [
      'lifecycle.create needs when unless it sets adoptionPolicy',
      `resources:\n  - name: ns\n    ${NS}\n    lifecycle:\n      create: {}\n`,
      ['t.yaml:6:15 resources[0].lifecycle.create.when: is required'],
    ],
    [
      'CEL parse error inside a quoted scalar points at the character',
      `resources:\n  - name: ns\n    ${NS}\n    lifecycle:\n      delete:\n        when:\n          expression: "deleted_time != null &&"\n`,
      ['t.yaml:8:47 resources[0].lifecycle.delete.when.expression: Unexpected token: EOF'],
    ],
    [
      'CEL check error on line 2 of a block literal',
      `resources:\n  - name: ns\n    ${NS}\n    lifecycle:\n      delete:\n        when:\n          expression: |\n            deleted_time != null\n              && foo(1)\n`,
      ["t.yaml:10:18 resources[0].lifecycle.delete.when.expression: found no matching overload for 'foo(int)'"],
    ],
    [
      'template syntax error',
      `params:\n  - name: clusterId\n    source: event.id\npreconditions:\n  - name: get\n    api_call:\n      method: GET\n      url: /clusters/{{ .clusterId }\n`,
      ['t.yaml:8:36 preconditions[0].api_call.url: unexpected "}" in operand'],
    ],
    [
      'template variable that no param, capture or runtime variable defines',
      `params:\n  - name: clusterId\n    source: event.id\npreconditions:\n  - name: get\n    api_call:\n      method: GET\n      url: /clusters/{{ .clustr }}\n`,
      ['t.yaml:8:25 preconditions[0].api_call.url: template references undefined variable .clustr'],
    ],
    [
      'discovery is required',
      `resources:\n  - name: ns\n    manifest: {apiVersion: v1, kind: Namespace, metadata: {name: x}}\n`,
      ['t.yaml:2:5 resources[0].discovery: is required'],
    ],
    [
      'maestro transport needs maestro.target_cluster; discovery needs exactly one method',
      `resources:\n  - name: mw\n    transport:\n      client: maestro\n    manifest: {apiVersion: v1, kind: Namespace, metadata: {name: x}}\n    discovery:\n      by_name: x\n      by_selectors: {label_selector: {a: b}}\n`,
      [
        't.yaml:4:7 resources[0].transport.maestro: is required',
        't.yaml:7:7 resources[0].discovery: must have exactly one of by_name, by_selectors',
      ],
    ],
    [
      'nested_discoveries: maestro only, names share the resource namespace, each needs a discovery',
      `resources:\n  - name: ns\n    ${NS}\n    transport: {client: kubernetes, maestro: {target_cluster: c}}\n    nested_discoveries:\n      - {name: inner, discovery: {by_name: y}}\n  - name: mw\n    transport: {client: maestro, maestro: {target_cluster: c}}\n    ${NS}\n    nested_discoveries:\n      - {name: ns, discovery: {by_name: y}}\n      - {name: cm, discovery: {namespace: n}}\n`,
      [
        't.yaml:5:46 resources[0].transport.maestro: is only used with client: maestro',
        't.yaml:7:7 resources[0].nested_discoveries: needs transport.client: maestro (they look inside a ManifestWork)',
        't.yaml:13:16 resources[1].nested_discoveries[0].name: "ns" is already declared at resources[0].name',
        't.yaml:14:31 resources[1].nested_discoveries[1].discovery: must have exactly one of by_name, by_selectors',
      ],
    ],
    [
      'CEL: unknown variables (params resolve in order) and unknown resources, positioned on the name',
      `params:\n  - name: a\n    source: {expression: "b + clustr"}\n  - name: b\n    source: event.id\nresources:\n  - name: ns\n    ${NS}\n    lifecycle:\n      delete:\n        when:\n          expression: |\n            a != "" &&\n              !resources.?nss.hasValue() && [1].all(x, x > 0)\n`,
      [
        "t.yaml:3:27 params[0].source.expression: unknown variable 'b' (declared later: params and captures resolve in order)",
        "t.yaml:3:31 params[0].source.expression: unknown variable 'clustr'",
        "t.yaml:15:27 resources[0].lifecycle.delete.when.expression: unknown resource 'resources.nss' (resources: ns)",
      ],
    ],
    [
      "CEL: a precondition's response keys are variables of that precondition only",
      `preconditions:\n  - name: c\n    api_call: {method: GET, url: /x}\n    capture:\n      - {name: g, expression: "generation + 1"}\n  - name: d\n    expression: "g > 0 && phase == 'x'"\n`,
      ["t.yaml:7:27 preconditions[1].expression: unknown variable 'phase'"],
    ],
    [
      'names: reserved, not a CEL identifier, duplicated',
      `params:\n  - name: event\n    source: event.id\nresources:\n  - name: Cluster-NS\n    ${NS}\n  - name: a\n    ${NS}\n  - name: a\n    ${NS}\n`,
      [
        't.yaml:2:11 params[0].name: "event" is reserved for the runtime variable of that name',
        't.yaml:5:11 resources[0].name: "Cluster-NS" must match ^[a-z][a-zA-Z0-9_]*$',
        't.yaml:11:11 resources[2].name: "a" is already declared at resources[1].name',
      ],
    ],
    [
      'param names follow HyperFleet only: lower-case first letter; CEL reserved words and type names are fine',
      `params:\n  - name: int\n    source: event.id\n  - name: namespace\n    source: event.id\n  - name: ClusterId\n    source: event.id\n  - name: _x\n    source: event.id\n`,
      [
        't.yaml:6:11 params[2].name: "ClusterId" must match ^[a-z][a-zA-Z0-9_]*$',
        't.yaml:8:11 params[3].name: "_x" must match ^[a-z][a-zA-Z0-9_]*$',
      ],
    ],
    ['YAML syntax error', `params:\n  - name: a\n   source: b\n`, ['t.yaml:3:1 Sequence item without - indicator']],
    [
      'the pre-HYPERFLEET-551 wrapper',
      `apiVersion: hyperfleet.redhat.com/v1alpha1\nkind: AdapterConfig\nspec: {}\n`,
      ['t.yaml:1:1 the apiVersion/kind/spec wrapper is not supported: use the flat task config format'],
    ],
    [
      'every problem at once, in file order',
      `params:\n  - name: p\n    source: env.\n    typ: string\npreconditions:\n  - name: c\n    api_call: {method: GET, url: /x, timeout: 10 seconds}\n    conditions:\n      - {field: status, operator: like, value: x}\npost:\n  payloads:\n    - name: s\n      build: {a: 1}\n      build_ref: x.yaml\n    - name: t\n      build:\n        status: {expression: '"True"', defualt: x}\n`,
      [
        't.yaml:3:13 params[0].source: env source must be env.<VARIABLE>',
        't.yaml:4:5 params[0].typ: unknown field',
        't.yaml:7:47 preconditions[0].api_call.timeout: invalid duration "10 seconds" (use Go syntax such as "10s", "1m30s")',
        't.yaml:9:35 preconditions[0].conditions[0].operator: must be one of equals, notEquals, in, notIn, contains, greaterThan, greaterThanOrEqual, lessThan, lessThanOrEqual, exists, notExists, got "like"',
        't.yaml:12:7 post.payloads[0]: must have exactly one of build, build_ref',
        't.yaml:17:40 post.payloads[1].build.status.defualt: unknown field in value definition (allowed: expression | field, default)',
      ],
    ],
    [
      'precondition needs api_call, expression or conditions; capture needs field or expression',
      `preconditions:\n  - name: c\n    capture:\n      - name: x\n`,
      [
        't.yaml:2:5 preconditions[0]: must have at least one of api_call, expression, conditions',
        't.yaml:4:9 preconditions[0].capture[0]: must have exactly one of field, expression',
      ],
    ],
  ])('%s', (_, yaml, expected) => {
    expect(errorsOf(yaml)).toEqual(expected);
  });

  it('exposes structured issues', () => {
    const error = (() => {
      try {
        parseTaskConfig(`params: []\nresourcez: []\n`, 'dir/t.yaml');
      } catch (e) {
        return e as TaskConfigError;
      }
      throw new Error('expected an error');
    })();
    expect(error.issues).toEqual([{ file: 'dir/t.yaml', line: 2, column: 1, path: 'resourcez', message: 'unknown field' }]);
  });

  it('positions errors of a manifest ref file in that file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'decom-ref-'));
    writeFileSync(join(dir, 'cm.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .nope }}\n');
    writeFileSync(join(dir, 'task.yaml'), `resources:\n  - name: cm\n    manifest: {ref: cm.yaml}\n    discovery: {by_name: x}\n`);
    return expect(loadTaskConfigFile(join(dir, 'task.yaml'))).rejects.toThrow(
      `${join(dir, 'cm.yaml')}:4:12 resources[0].manifest.ref: template references undefined variable .nope`,
    );
  });
});

describe("HyperFleet's chart mounts: /etc/adapter/<key>.yaml", () => {
  const task = `resources:\n  - name: cm\n    manifest: {ref: /etc/adapter/configmap.yaml}\n    discovery: {by_name: x}\npost:\n  payloads:\n    - name: s\n      build_ref: /etc/adapter/status.yaml\n`;

  it("reads the folder's adapter-task-resource-<key>.yaml, each adapter its own, with a warning naming it", async () => {
    const loaded = [];
    for (const value of ['one', 'two']) {
      const dir = mkdtempSync(join(tmpdir(), 'decom-mount-'));
      writeFileSync(join(dir, 'adapter-task-resource-configmap.yaml'), `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${value}\n`);
      writeFileSync(join(dir, 'adapter-task-resource-status.yml'), 'conditions: []\n');
      writeFileSync(join(dir, 'adapter-task-config.yaml'), task);
      loaded.push(await loadTaskConfigFile(join(dir, 'adapter-task-config.yaml')));
    }
    expect(loaded.map((t) => t.resources[0]?.manifest)).toEqual([
      expect.objectContaining({ template: expect.objectContaining({ source: expect.stringContaining('name: one') }) }),
      expect.objectContaining({ template: expect.objectContaining({ source: expect.stringContaining('name: two') }) }),
    ]);
    expect(loaded[0]?.warnings?.map((w) => [w.path, w.message])).toEqual([
      [
        'resources[0].manifest.ref',
        '"/etc/adapter/configmap.yaml" is read from this folder\'s adapter-task-resource-configmap.yaml (HyperFleet\'s chart mounts it there)',
      ],
      [
        'post.payloads[0].build_ref',
        '"/etc/adapter/status.yaml" is read from this folder\'s adapter-task-resource-status.yml (HyperFleet\'s chart mounts it there)',
      ],
    ]);
  });

  it('without such a file in the folder, the absolute path is read (and its absence is an error naming it)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'decom-mount-'));
    writeFileSync(join(dir, 'adapter-task-config.yaml'), task);
    await expect(loadTaskConfigFile(join(dir, 'adapter-task-config.yaml'))).rejects.toThrow(
      'resources[0].manifest.ref: cannot read "/etc/adapter/configmap.yaml": ENOENT',
    );
  });
});

describe('parseTaskConfig: the typed config', () => {
  it('loads the seed 000 example unchanged (config/adapters/validation.yaml)', async () => {
    const task = await loadTaskConfigFile('config/adapters/validation.yaml');
    expect(task.params.map((p) => [p.name, p.source, p.type, p.required])).toEqual([
      ['clusterId', { kind: 'event', path: ['id'] }, 'string', true],
    ]);
    expect(task.preconditions[0]?.captures.map((c) => c.name)).toEqual(['is_deleting', 'clusterName', 'generation']);
    expect(task.resources.map((r) => [r.name, r.lifecycle?.delete?.propagationPolicy, r.lifecycle?.delete?.when.source])).toEqual([
      [
        'clusterNamespace',
        'Background',
        'deleted_time != null && !resources.?clusterConfigMap.hasValue() && !resources.?clusterJob.hasValue()',
      ],
      ['clusterConfigMap', 'Background', 'deleted_time != null && !resources.?clusterJob.hasValue()'],
      ['clusterJob', 'Background', 'deleted_time != null'],
    ]);
    expect(task.post.payloads[0]?.name).toBe('clusterStatusPayload');
    expect(task.post.postActions[0]?.apiCall?.method).toBe('PUT');
  });

  it('defaults propagationPolicy to Background and parses params of every source kind', () => {
    const task = parseTaskConfig(
      `params:\n  - {name: a, source: event.owner_references.id}\n  - {name: b, source: env.TOKEN, required: true}\n  - {name: c, source: config.adapter.name}\n  - {name: d, source: a.x}\n  - {name: e, source: {expression: "a + 'x'"}}\n  - {name: f, source: {file: {path: /tmp/x}}, type: int, default: 3}\n  - {name: g, source: {api_call: {method: GET, url: /clusters}}}\nresources:\n  - name: r\n    ${NS}\n    lifecycle: {delete: {when: {expression: "true"}}}\n`,
      't.yaml',
    );
    expect(task.params.map((p) => p.source.kind)).toEqual(['event', 'env', 'config', 'param', 'expression', 'file', 'api_call']);
    expect(task.params[5]).toMatchObject({ type: 'int', hasDefault: true, default: 3 });
    expect(task.resources[0]?.lifecycle?.delete?.propagationPolicy).toBe('Background');
  });

  it('defaults lifecycle.delete.policy to Delete and adoptionPolicy to Adopt; a create block may carry only an adoptionPolicy', () => {
    const task = parseTaskConfig(
      `resources:\n  - name: r\n    ${NS}\n    lifecycle: {create: {when: {expression: "true"}}, delete: {when: {expression: "true"}}}\n  - name: s\n    ${NS}\n    lifecycle: {create: {adoptionPolicy: FailIfExists}, delete: {policy: Orphan, when: {expression: "true"}}}\n`,
      't.yaml',
    );
    expect(task.resources[0]?.lifecycle).toMatchObject({ create: { adoptionPolicy: 'Adopt' }, delete: { policy: 'Delete' } });
    expect(task.resources[1]?.lifecycle?.create).toEqual({ adoptionPolicy: 'FailIfExists' });
    expect(task.resources[1]?.lifecycle?.delete?.policy).toBe('Orphan');
  });
});

describe('adapter deployment config and directory', () => {
  it('fills HyperFleet defaults and reports errors in the same style', () => {
    const config = parseAdapterConfig(
      `adapter: {name: validation}\nclients:\n  hyperfleet_api: {base_url: "http://api:8000/", timeout: 5s}\n`,
      'a.yaml',
    );
    expect(config.clients.hyperfleetApi).toEqual({
      baseUrl: 'http://api:8000',
      version: 'v1',
      timeoutMs: 5000,
      retryAttempts: 3,
      retryBackoff: 'exponential',
      baseDelayMs: 1000,
      maxDelayMs: 30000,
      defaultHeaders: {},
    });
    expect(() =>
      parseAdapterConfig(
        `adapter: {version: "1"}\nclients:\n  hyperfleet_api: {retry_backoff: fibonacci}\n  maestro: {http_server_address: "http://m:8000", timeout: 3}\n`,
        'a.yaml',
      ),
    ).toThrow(
      [
        'a.yaml:1:10 adapter.name: is required',
        'a.yaml:3:35 clients.hyperfleet_api.retry_backoff: must be one of exponential, linear, constant, got "fibonacci"',
        'a.yaml:4:34 clients.maestro.http_server_address: must use https:// unless insecure: true',
        'a.yaml:4:60 clients.maestro.timeout: must be a string, got a number',
      ].join('\n'),
    );
  });

  it('reads clients.maestro and applies HYPERFLEET_* environment overrides (environment > YAML)', () => {
    const yaml = `adapter: {name: mw}\nclients:\n  hyperfleet_api: {timeout: 5s}\n  maestro:\n    grpc_server_address: maestro-grpc:8090\n    http_server_address: https://maestro:8000\n    source_id: hyperfleet-adapter\n    auth: {type: tls, tls_config: {ca_file: /ca.crt}}\n    keepalive: {time: 30s, timeout: 10s}\n`;
    const config = parseAdapterConfig(yaml, 'a.yaml', {
      HYPERFLEET_API_TIMEOUT: '2s',
      HYPERFLEET_API_RETRY_ATTEMPTS: '5',
      HYPERFLEET_MAESTRO_HTTP_SERVER_ADDRESS: 'http://127.0.0.1:9000',
      HYPERFLEET_MAESTRO_INSECURE: 'true',
      BROKER_TOPIC: 'legacy-topic',
    });
    expect(config.clients.hyperfleetApi).toMatchObject({ timeoutMs: 2000, retryAttempts: 5 });
    expect(config.clients.maestro).toEqual({
      grpcServerAddress: 'maestro-grpc:8090',
      httpServerAddress: 'http://127.0.0.1:9000',
      sourceId: 'hyperfleet-adapter',
      auth: { type: 'tls', tlsConfig: { caFile: '/ca.crt' } },
      keepalive: { timeMs: 30000, timeoutMs: 10000 },
      insecure: true,
    });
    expect(config.clients.broker).toEqual({ topic: 'legacy-topic' });
    expect(() => parseAdapterConfig(yaml, 'a.yaml', { HYPERFLEET_API_RETRY_ATTEMPTS: 'many' })).toThrow(
      'a.yaml:1:1 clients.hyperfleet_api.retry_attempts: must be an integer, got a string (set by HYPERFLEET_API_RETRY_ATTEMPTS)',
    );
  });

  it('pairs <name>.yaml with <name>.adapter.yaml (the shipped config/adapters)', async () => {
    const adapters = await loadAdapterDirectory('config/adapters');
    expect(adapters.map((a) => [a.name, a.version, a.task.resources.map((r) => r.name)])).toEqual([
      ['np-configmap', '0.1', ['nodepoolConfigMap']],
      ['validation', '0.1', ['clusterNamespace', 'clusterConfigMap', 'clusterJob']],
    ]);
  });
});

describe('HyperFleet name and CEL-variable rules', () => {
  const unknownVariable = `params:\n  - name: a\n    source: {expression: "clustr + 1"}\n`;

  it('an unknown CEL variable is a positioned warning at load, and an error with strict', () => {
    const task = parseTaskConfig(unknownVariable, 't.yaml');
    expect(task.warnings?.map(formatConfigIssue)).toEqual([
      "t.yaml:3:27 params[0].source.expression: unknown variable 'clustr': evaluation will fail (an error with --strict)",
    ]);
    expect(() => parseTaskConfig(unknownVariable, 't.yaml', { strict: true })).toThrow(
      "t.yaml:3:27 params[0].source.expression: unknown variable 'clustr'",
    );
  });

  it('a manifest without apiVersion or kind loads with a positioned warning (Kubernetes refuses it at apply)', () => {
    const task = parseTaskConfig(
      `resources:\n  - name: ns\n    manifest: {apiVersion: v1, kindd: Namespace, metadata: {name: x}}\n    discovery: {by_name: x}\n`,
      't.yaml',
    );
    expect(task.warnings?.map(formatConfigIssue)).toEqual([
      't.yaml:3:15 resources[0].manifest: has no kind: Kubernetes refuses such an object (400)',
    ]);
    expect(parseTaskConfig(`resources:\n  - name: ns\n    ${NS}\n`, 't.yaml').warnings).toBeUndefined();
  });

  it('a resource named like a CEL reserved word is selected as a field (resources.?namespace)', () => {
    const task = parseTaskConfig(
      `resources:\n  - name: package\n    ${NS}\n  - name: namespace\n    ${NS}\n    lifecycle:\n      delete:\n        when:\n          expression: "!resources.?namespace.hasValue() && !has(resources.package)"\n`,
      't.yaml',
    );
    expect(task.warnings).toBeUndefined();
    const when = task.resources[1]!.lifecycle!.delete!.when;
    expect(when.compiled.evaluate({ resources: {} })).toBe(true);
    expect(when.compiled.evaluate({ resources: { namespace: { kind: 'Namespace' } } })).toBe(false);
    expect(when.compiled.evaluate({ resources: { package: { kind: 'Namespace' } } })).toBe(false);
  });
});

describe('parseTaskConfig: params named after CEL reserved words', () => {
  // Every word cel-js reserves (CEL's reserved identifiers) that is also a valid param name.
  const words = [
    'as',
    'break',
    'const',
    'continue',
    'else',
    'for',
    'function',
    'if',
    'import',
    'let',
    'loop',
    'package',
    'namespace',
    'return',
    'var',
    'void',
    'while',
    'prototype',
  ];

  it.each(words)('a param named %s, used only in templates, loads beside CEL expressions', (word) => {
    const task = parseTaskConfig(
      `params:\n  - name: ${word}\n    source: event.id\n  - name: other\n    source: event.id\npreconditions:\n  - name: c\n    api_call: {method: GET, url: "/x/{{ .${word} }}"}\n    capture:\n      - {name: g, expression: "generation + 1"}\n    expression: "g > 0 && other != ''"\nresources:\n  - name: ns\n    manifest: {apiVersion: v1, kind: Namespace, metadata: {name: "{{ .${word} }}"}}\n    discovery: {by_name: "{{ .${word} }}"}\n    lifecycle:\n      delete:\n        when: {expression: "other != ''"}\n`,
      't.yaml',
      { strict: true },
    );
    expect(task.warnings).toBeUndefined();
    expect(task.params.map((p) => p.name)).toEqual([word, 'other']);
    // The expressions still evaluate with the param in the variables (it is just not visible to CEL).
    expect(task.resources[0]!.lifecycle!.delete!.when.compiled.evaluate({ [word]: 'x', other: 'y' })).toBe(true);
  });

  it('the bare word in an expression is an error at file:line:column of that expression only', () => {
    expect(
      errorsOf(
        `params:\n  - name: namespace\n    source: event.id\n  - name: ok\n    source: event.id\nresources:\n  - name: ns\n    ${NS}\n    lifecycle:\n      delete:\n        when: {expression: "ok != '' && namespace != ''"}\n`,
      ),
    ).toEqual(['t.yaml:12:41 resources[0].lifecycle.delete.when.expression: Reserved identifier: namespace']);
  });
});

describe('parseTaskConfig: unusable input (nothing could be validated) is marked for exit code 2', () => {
  const thrown = (text: string): TaskConfigError => {
    try {
      parseTaskConfig(text, 'task.yaml');
    } catch (error) {
      return error as TaskConfigError;
    }
    throw new Error('expected a TaskConfigError');
  };

  it.each([[''], ['# only a comment\n'], ['\n\n']])('an empty file %j is an error, not "ok"', (text) => {
    const error = thrown(text);
    expect(error.message).toBe('task.yaml:1:1 the file is empty: no task config to validate');
    expect(error.unusable).toBe(true);
  });

  it('a YAML syntax error is unusable; a config with wrong fields is not', () => {
    expect(thrown('params:\n  - name: a\n   source: [x\n').unusable).toBe(true);
    expect(thrown('params:\n  - name: a\n    sorce: event.id\n').unusable).toBe(false);
  });

  it('a missing file is unusable', async () => {
    await expect(loadTaskConfigFile(join(tmpdir(), 'decom-no-such-file.yaml'))).rejects.toMatchObject({
      unusable: true,
      message: expect.stringContaining('cannot read file: ENOENT'),
    });
  });
});
