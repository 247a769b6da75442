import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REALISTIC_CONTROLLER_DELAY_MS, startLocalKube, type LocalKube } from './index.js';

/**
 * The real kubectl against the bundled server: what an operator types while the engine runs
 * (README "kubectl"). Skipped, with the reason printed, where no kubectl is installed.
 */
const run = promisify(execFile);
const kubectlFound = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' }).status === 0;
if (!kubectlFound) console.log('kubectl against the bundled server: skipped (no kubectl on PATH; install kubectl ≥ 1.27 to run it)');

(kubectlFound ? describe : describe.skip)('kubectl against the bundled server', () => {
  let kube: LocalKube;
  let dir: string;
  let kubeconfig: string;

  beforeAll(async () => {
    kube = await startLocalKube({ controllerDelayMs: REALISTIC_CONTROLLER_DELAY_MS });
    dir = mkdtempSync(join(tmpdir(), 'kubectl-'));
    kubeconfig = join(dir, 'kubeconfig');
    writeFileSync(kubeconfig, kube.kubeconfigYaml());
  });
  afterAll(async () => {
    await kube.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Runs kubectl with its own kubeconfig and discovery cache; resolves to stdout, rejects with stderr. */
  async function kubectl(...args: string[]): Promise<string> {
    try {
      const { stdout } = await run('kubectl', ['--kubeconfig', kubeconfig, '--cache-dir', join(dir, 'cache'), ...args], {
        env: { ...process.env, HOME: dir },
      });
      return stdout;
    } catch (error) {
      const { stderr, stdout } = error as { stderr?: string; stdout?: string };
      throw new Error(`kubectl ${args.join(' ')} failed: ${stderr ?? ''}${stdout ?? ''}`);
    }
  }

  function manifest(name: string, text: string): string {
    const file = join(dir, name);
    writeFileSync(file, text);
    return file;
  }

  it('apply -f creates, then configures from the changed file (client-side apply, OpenAPI v3)', async () => {
    const file = manifest('cm.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\ndata:\n  a: one\n');
    expect(await kubectl('apply', '-f', file)).toContain('configmap/applied created');
    manifest('cm.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\ndata:\n  a: two\n');
    expect(await kubectl('apply', '-f', file)).toContain('configmap/applied configured');
    const stored = kube.peek('v1', 'ConfigMap', 'default', 'applied') as {
      data: Record<string, string>;
      metadata: { annotations: Record<string, string> };
    };
    expect(stored.data).toEqual({ a: 'two' });
    expect(stored.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']).toContain('"a":"two"');
  });

  it("create -f takes a valid Job and reports the server's strict decoding error for an unknown field", async () => {
    const job =
      'apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: once\nspec:\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n      - name: main\n        image: busybox:1.36\n        command: ["true"]\n';
    expect(await kubectl('create', '-f', manifest('job.yaml', job))).toContain('job.batch/once created');
    await expect(
      kubectl('create', '-f', manifest('bad.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bad\ncolour: blue\n')),
    ).rejects.toThrow('unknown field "colour"');
  });

  it('apply --server-side owns fields; another field manager conflicts until --force-conflicts', async () => {
    const file = manifest('ssa.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ssa\ndata:\n  a: one\n');
    expect(await kubectl('apply', '--server-side', '-f', file)).toContain('configmap/ssa serverside-applied');
    const other = manifest('ssa-other.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ssa\ndata:\n  a: two\n');
    await expect(kubectl('apply', '--server-side', '--field-manager=other', '-f', other)).rejects.toThrow(
      'Apply failed with 1 conflict: conflict with "kubectl": .data.a',
    );
    await kubectl('apply', '--server-side', '--field-manager=other', '--force-conflicts', '-f', other);
    const stored = kube.peek('v1', 'ConfigMap', 'default', 'ssa') as {
      data: unknown;
      metadata: { managedFields: { manager: string; operation: string }[] };
    };
    expect(stored.data).toEqual({ a: 'two' });
    expect(stored.metadata.managedFields.map((m) => [m.manager, m.operation])).toEqual([['other', 'Apply']]);
  });

  it('create configmap --from-literal', async () => {
    expect(await kubectl('create', 'configmap', 'literal', '--from-literal=a=b')).toContain('configmap/literal created');
    expect(kube.peek('v1', 'ConfigMap', 'default', 'literal')).toMatchObject({ data: { a: 'b' } });
  });

  it('describe shows the event a deletion waiting for a finalizer records; get events selects it', async () => {
    kube.seed({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'held', finalizers: ['example.com/hold'] }, data: { a: 'b' } });
    await kubectl('delete', 'configmap', 'held', '--wait=false');
    const described = await kubectl('describe', 'configmap', 'held');
    expect(described).toMatch(/Events:\s+Type\s+Reason/);
    expect(described).toContain('Deletion waits for finalizers: example.com/hold');
    expect(await kubectl('get', 'events', '--field-selector', 'involvedObject.name=held')).toMatch(
      /LAST SEEN\s+TYPE\s+REASON\s+OBJECT\s+MESSAGE\n\S+\s+Normal\s+WaitingForFinalizers\s+configmap\/held\s+Deletion waits for finalizers: example.com\/hold/,
    );
    const events = JSON.parse(await kubectl('get', 'events', '--field-selector', 'involvedObject.name=held', '-o', 'json')) as {
      items: { reason: string }[];
    };
    expect(events.items.map((e) => e.reason)).toEqual(['WaitingForFinalizers']);
    const newEvents = JSON.parse(await kubectl('get', 'events.v1.events.k8s.io', '-o', 'json')) as {
      items: { reason: string; regarding: { name: string } }[];
    };
    expect(newEvents.items.filter((e) => e.regarding.name === 'held').map((e) => e.reason)).toEqual(['WaitingForFinalizers']);
  });

  it('get pods --field-selector status.phase, get all and explain', async () => {
    kube.seed({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'waiting' },
      spec: { containers: [{ name: 'main', image: 'busybox:1.36' }] },
    });
    expect(await kubectl('get', 'pods', '--field-selector', 'status.phase=Pending', '-o', 'name')).toBe('pod/waiting\n');
    expect(await kubectl('get', 'pods', '--field-selector', 'status.phase=Running', '-o', 'name')).toBe('');
    expect(await kubectl('get', 'all', '-o', 'name')).toContain('pod/waiting');
    expect(await kubectl('explain', 'job.spec.backoffLimit')).toContain('backoffLimit');
  });
});
