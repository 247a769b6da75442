import { ExecutorHarness } from '../testing/executor-harness.js';
import { reportingTaskConfig } from '../testing/reporting-task-config.js';
import type { ExecutionFence, FenceVerdict } from './run-fence.js';

/**
 * Fencing, executor side: every write first asks the run's fence; a stale fence stops
 * the run before the write, no later call is made and nothing is reported. Local Kubernetes API
 * server and a recorded-response HyperFleet API over HTTP.
 */
const ID = 'c1';
const GET = `GET /api/hyperfleet/v1/clusters/${ID}`;
const PUT = `PUT /api/hyperfleet/v1/clusters/${ID}/statuses`;
const CONFIG = reportingTaskConfig({
  resources: `  - name: first
    manifest: {apiVersion: v1, kind: ConfigMap, metadata: {name: 'first-{{ .clusterId }}', namespace: default}}
    discovery: {by_name: 'first-{{ .clusterId }}', namespace: default}
  - name: second
    manifest: {apiVersion: v1, kind: ConfigMap, metadata: {name: 'second-{{ .clusterId }}', namespace: default}}
    discovery: {by_name: 'second-{{ .clusterId }}', namespace: default}`,
});

describe('Fencing › the executor checks its fence before every write', () => {
  let h: ExecutorHarness;
  beforeEach(async () => {
    h = await ExecutorHarness.start();
    h.api.on(GET, { status: 200, body: { id: ID, generation: 3 } }).on(PUT, { status: 201, body: {} });
  });
  afterEach(() => h.close());

  /** A fence that is current for `currentChecks` checks, then stale. */
  const fence = (currentChecks: number): ExecutionFence & { checks: number } => {
    const f = {
      generation: 3,
      sequence: 1_764_000_000_000,
      checks: 0,
      check: async (): Promise<FenceVerdict> =>
        ++f.checks <= currentChecks ? { current: true } : { current: false, reason: 'another run took over' },
    };
    return f;
  };

  it('a current fence: both creates go through, the status PUT carries X-Decom-Fence', async () => {
    const f = fence(Infinity);
    const result = await (await h.executor(CONFIG, 'fenced')).execute({ id: ID, kind: 'Cluster' }, { fence: f });
    expect(result.status).toBe('success');
    expect(f.checks).toBe(2);
    expect(h.kube.peek('v1', 'ConfigMap', 'default', `second-${ID}`)).toBeDefined();
    expect(h.api.requests('PUT')).toHaveLength(1);
    expect(h.api.requests('PUT')[0]!.headers['x-decom-fence']).toBe('3.1764000000000');
    expect(h.api.requests('GET')[0]!.headers['x-decom-fence']).toBe('3.1764000000000');
    expect(result.fence).toEqual({ generation: 3, sequence: 1_764_000_000_000 });
  });

  it('a fence that goes stale: the write is refused, no further call, no status report', async () => {
    const f = fence(1);
    const result = await (await h.executor(CONFIG, 'fenced')).execute({ id: ID, kind: 'Cluster' }, { fence: f });
    expect(h.kube.peek('v1', 'ConfigMap', 'default', `first-${ID}`)).toBeDefined();
    expect(h.kube.peek('v1', 'ConfigMap', 'default', `second-${ID}`)).toBeUndefined();
    expect(h.kube.requestsMatching({ method: 'POST' })).toHaveLength(1);
    expect(h.api.requests('PUT')).toEqual([]);
    expect(result.fence?.lost).toMatch(/another run took over \(fence 3\.1764000000000; refused: create ConfigMap default\/second-c1\)/);
    expect(result.adapter).toMatchObject({ executionStatus: 'failed' });
    expect(result.phases.find((p) => p.phase === 'post_actions')?.status).toBe('skipped');
  });

  it('a fence check that cannot be made counts as stale (never a write on "unknown")', async () => {
    const broken: ExecutionFence = {
      generation: 3,
      sequence: 7,
      check: async () => Promise.reject(new Error('redis: connection refused')),
    };
    const result = await (await h.executor(CONFIG, 'fenced')).execute({ id: ID, kind: 'Cluster' }, { fence: broken });
    expect(h.kube.requestsMatching({ method: 'POST' })).toEqual([]);
    expect(result.fence?.lost).toMatch(/fence check failed: redis: connection refused/);
  });

  it('without a fence (dry runs, plain HyperFleet semantics) nothing is checked and no header is sent', async () => {
    const result = await (await h.executor(CONFIG, 'plain')).execute({ id: ID, kind: 'Cluster' });
    expect(result.status).toBe('success');
    expect(result.fence).toBeUndefined();
    expect(h.api.requests('PUT')[0]!.headers['x-decom-fence']).toBeUndefined();
  });
});
