import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
// The harness lives with the adapter library's test support (not part of its public API).
import { ExecutorHarness } from '@decom/adapter/testing';
import { registerAdapterCommands } from './adapter.command.js';

/** `decom adapter validate | dry-run | plan` in process, with captured output and exit code. */
async function decom(...args: string[]): Promise<{ out: string; err: string; code: number }> {
  const result = { out: '', err: '', code: 0 };
  const program = new Command('decom').exitOverride();
  registerAdapterCommands(program, {
    out: (t) => void (result.out += t),
    err: (t) => void (result.err += t),
    setExitCode: (c) => void (result.code = c),
  });
  await program.parseAsync(['adapter', ...args], { from: 'user' });
  return result;
}

const EXAMPLES = 'config/adapters/examples';
const fixture = (name: string) => [
  '--task-config',
  `${EXAMPLES}/${name}.yaml`,
  '--event',
  `${EXAMPLES}/dry-run/${name}/event.json`,
  '--api-responses',
  `${EXAMPLES}/dry-run/${name}/api-responses.json`,
  '--discovery',
  `${EXAMPLES}/dry-run/${name}/discovery.json`,
];

describe('decom adapter validate', () => {
  it('prints ok per good file and every error of every bad file, exit 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'decom-validate-'));
    const bad = join(dir, 'bad.yaml');
    const worse = join(dir, 'worse.yaml');
    writeFileSync(
      bad,
      'params:\n  - name: a\n    source: event.id\n    typo: 1\nresources:\n  - name: ns\n    manifest: {apiVersion: v1, kind: Namespace, metadata: {name: x}}\n    discovery: {by_name: x}\n    lifecycle: {delete: {when: {expression: "clustr != null"}}}\n',
    );
    writeFileSync(worse, 'post:\n  post_actions:\n    - name: put\n');
    const run = await decom('validate', '--strict', `${EXAMPLES}/cluster-bootstrap.yaml`, bad, worse);
    expect(run.out.split('\n')).toEqual([
      `${EXAMPLES}/cluster-bootstrap.yaml: ok`,
      `${bad}:4:5 params[0].typo: unknown field`,
      `${bad}:9:46 resources[0].lifecycle.delete.when.expression: unknown variable 'clustr'`,
      `${worse}:3:7 post.post_actions[0]: must have api_call or log`,
      '',
    ]);
    expect(run.err).toBe('2 of 3 file(s) have errors\n');
    expect(run.code).toBe(1);
  });

  it('without --strict an unknown CEL variable is a warning; unset required env. sources are warned about', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'decom-validate-'));
    const file = join(dir, 'envy.yaml');
    writeFileSync(
      file,
      'params:\n  - {name: region, source: env.DECOM_TEST_UNSET_REGION, required: true}\n  - {name: zone, source: env.DECOM_TEST_ZONE, required: true}\n  - {name: other, source: env.DECOM_TEST_OTHER, required: true, default: x}\n  - {name: a, source: {expression: "clustr + 1"}}\n',
    );
    const run = await decom('validate', '--env', 'DECOM_TEST_ZONE=z1', file);
    expect(run.out.split('\n')).toEqual([
      `${file}: ok`,
      `${file}:5:37 params[3].source.expression: unknown variable 'clustr': evaluation will fail (an error with --strict) (warning)`,
      `${file}: warning: required param source env.DECOM_TEST_UNSET_REGION is unset: every run would fail its param extraction`,
      `${file}: warning: no post action PUTs a status (.../statuses): this adapter never reports, so deletions would wait on it forever`,
      '',
    ]);
    expect(run.code).toBe(0);
    const strict = await decom('validate', '--strict', file);
    expect(strict.code).toBe(1);
  });

  it('a HyperFleet deployment config with base_url: CHANGE_ME validates with HYPERFLEET_API_BASE_URL', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'decom-validate-'));
    const file = join(dir, 'adapter-config.yaml');
    writeFileSync(file, 'adapter:\n  name: cl-namespace\nclients:\n  hyperfleet_api:\n    base_url: CHANGE_ME\n');
    expect((await decom('validate', file)).code).toBe(1);
    const run = await decom('validate', '--env', 'HYPERFLEET_API_BASE_URL=http://127.0.0.1:8000', file);
    expect(run.out).toBe(`${file}: ok (deployment config)\n`);
    expect(run.code).toBe(0);
  });

  it('every example and shipped task config validates', async () => {
    const files = ['validation-by-selector', 'cluster-bootstrap', 'maestro-workload'].map((n) => `${EXAMPLES}/${n}.yaml`);
    const run = await decom('validate', ...files, 'config/adapters/validation.yaml', 'config/adapters/np-configmap.yaml');
    expect(run.code).toBe(0);
    expect(run.out.trim().split('\n')).toHaveLength(5);
  });
});

describe('decom adapter validate: deployment configs and adapters that never report', () => {
  it('checks *.adapter.yaml as deployment configs and warns about a task config that never PUTs a status', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'decom-validate-'));
    const silent = join(dir, 'silent.yaml');
    const badDeployment = join(dir, 'silent.adapter.yaml');
    // Valid, but does nothing: no post action reports a status (an empty file is an error).
    writeFileSync(silent, 'params: []\n');
    writeFileSync(badDeployment, 'adapter:\n  nam: silent\n');
    const run = await decom(
      'validate',
      'config/adapters/validation.adapter.yaml',
      'config/adapters/np-configmap.adapter.yaml',
      silent,
      badDeployment,
    );
    expect(run.out).toContain('config/adapters/validation.adapter.yaml: ok (deployment config)');
    expect(run.out).toContain('config/adapters/np-configmap.adapter.yaml: ok (deployment config)');
    expect(run.out).toContain(`${silent}: warning: no post action PUTs a status`);
    expect(run.out).toContain(`${badDeployment}:2:3 adapter.nam: unknown field`);
    expect(run.code).toBe(1);
  });
});

describe('decom adapter validate: deployment configs by content and --config', () => {
  it('checks a deployment config under any name as one (by content, or --config), not as a task config', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'decom-validate-'));
    const deploy = join(dir, 'deploy-settings.yaml');
    writeFileSync(deploy, 'adapter:\n  name: my-adapter\nclients:\n  hyperfleet_api:\n    base_url: http://127.0.0.1:8000\n');
    const wrapped = join(dir, 'old.yaml');
    writeFileSync(wrapped, 'apiVersion: hyperfleet.redhat.com/v1alpha1\nkind: AdapterConfig\nspec:\n  adapter: {version: "0.1"}\n');
    const byContent = await decom('validate', deploy, wrapped);
    expect(byContent.out).toContain(`${deploy}: ok (deployment config)`);
    expect(byContent.out).toContain(
      `${wrapped}:1:1 the apiVersion/kind/spec wrapper is not supported: use the flat deployment config format`,
    );
    expect(byContent.out).not.toContain('unknown field');
    expect(byContent.code).toBe(1);

    // --config: whatever the content says; a task config passed there is checked as a deployment config.
    const named = join(dir, 'settings.conf.yaml');
    writeFileSync(named, 'adapter:\n  name: my-adapter\n');
    const explicit = await decom('validate', '--config', named, '--task-config', 'config/adapters/validation.yaml');
    expect(explicit.out).toBe(`${named}: ok (deployment config)\nconfig/adapters/validation.yaml: ok\n`);
    expect(explicit.code).toBe(0);
    const misplaced = await decom('validate', '--config', 'config/adapters/validation.yaml');
    expect(misplaced.out).toContain('config/adapters/validation.yaml:1:1 params: unknown field');
    expect(misplaced.code).toBe(1);
    const nothing = await decom('validate');
    expect([nothing.err, nothing.code]).toEqual(['validate needs at least one file (or --config / --task-config)\n', 2]);
  });
});

describe('decom adapter dry-run', () => {
  it('prints phases, CEL results, API and Kubernetes calls and the status payload (text)', async () => {
    const run = await decom('dry-run', ...fixture('validation-by-selector'));
    expect(run.code).toBe(0);
    expect(run.out).toContain(
      'Phases\n  param_extraction  success\n  preconditions     success\n  resources         success\n  post_actions      success',
    );
    expect(run.out).toContain('  resources[2].lifecycle.delete.when.expression\n      deleted_time != null\n      = true');
    expect(run.out).toMatch(/delete {3}batch\/v1 Job \S+\/validation-\S+-gen2 propagationPolicy=Background → deleted/);
    expect(run.out).toContain('GET    /clusters/0190b2c3-d4e5-7f60-8a9b-1c2d3e4f5a6b → 200 (recorded)');
    expect(run.out).toMatch(
      /Status payloads \(would be sent\)\n {2}PUT \/clusters\/\S+\/statuses\n {4}\{\n {6}"adapter": "validation-by-selector"/,
    );
  });

  it('--output json is the whole report', async () => {
    const run = await decom('dry-run', ...fixture('maestro-workload'), '--output', 'json', '--env', 'MAESTRO_CONSUMER=cluster1');
    const report = JSON.parse(run.out) as {
      result: { status: string; operations: { operation: string }[] };
      kubernetesCalls: { via?: string }[];
    };
    expect(report.result.status).toBe('success');
    expect(report.result.operations.map((o) => o.operation)).toEqual(['delete']);
    expect(report.kubernetesCalls.every((c) => c.via === 'maestro:cluster1')).toBe(true);
  });

  it('an unusable input exits 2 with the file named', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'decom-dry-'));
    writeFileSync(join(dir, 'event.json'), '{"specversion": "1.0", "data": {}}');
    const run = await decom('dry-run', '--task-config', `${EXAMPLES}/cluster-bootstrap.yaml`, '--event', join(dir, 'event.json'));
    expect(run.code).toBe(2);
    expect(run.err).toContain(`${join(dir, 'event.json')}: invalid CloudEvent`);
  });
});

describe('decom adapter plan', () => {
  let h: ExecutorHarness;
  beforeEach(async () => {
    h = await ExecutorHarness.start();
  });
  afterEach(() => h.close());

  it('plans the deletion of a cluster over the local Kubernetes server and a recorded API, read-only', async () => {
    const id = '0190c0de-0000-7000-8000-00000000cafe';
    const href = `/api/hyperfleet/v1/clusters/${id}`;
    h.api
      .on(`GET ${href}`, { status: 200, body: { id, kind: 'Cluster', href, generation: 2 } })
      .on(`PUT ${href}/statuses`, { status: 201, body: {} });
    await (await h.executor('config/adapters/validation.yaml', 'validation')).execute({ id, kind: 'Cluster' });
    h.api.on(`GET ${href}`, { status: 200, body: { id, kind: 'Cluster', href, generation: 3, deleted_time: '2026-03-25T09:00:00Z' } });
    const kubeconfig = join(mkdtempSync(join(tmpdir(), 'decom-plan-')), 'kubeconfig');
    writeFileSync(kubeconfig, h.kube.kubeconfigYaml());
    h.kube.clearRequests();

    const run = await decom(
      'plan',
      '--task-config',
      'config/adapters/validation.yaml',
      '--resource',
      href,
      '--api',
      h.api.url,
      '--kubeconfig',
      kubeconfig,
    );

    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    // The seed's by_name Job (gen3) never existed; the gen2 Job carries our marker and goes first
    // (discovery by ownership), the ConfigMap waits for it.
    expect(run.out).toContain(`Deletion plan for Cluster ${id} (generation 3, deleted_time 2026-03-25T09:00:00Z)`);
    expect(run.out).toMatch(
      /Pass 1\n {2}validation\n {4}keep +Namespace \S+ \(clusterNamespace\): generation 0 unchanged — delete\.when = false\n {4}keep +ConfigMap .*\n {4}gone +Job \S+-gen3 .*\n {4}DELETE +Job \S+-gen2 \(clusterJob\): .*discovery by ownership/,
    );
    expect(run.out).toMatch(/Pass 2\n {2}validation\n {4}keep +Namespace .*\n {4}DELETE +ConfigMap/);
    expect(run.out).toContain('Outcome: complete after');
    expect(h.kube.requests.filter((r) => r.method !== 'GET')).toEqual([]);
    expect(h.api.requests('PUT')).toHaveLength(1);
  });
});
