import {
  InProcessJobQueue,
  adapterRunJobId,
  adapterRunQueue,
  reconcileCloudEvent,
  retryBackoffKey,
  type AdapterRunJob,
  type Job,
} from '@decom/jobs';
import type { ObjectChange } from '@decom/adapter';
import { MAX_TRIGGERED_RUNS, WatchTriggers } from './watch-triggers.js';

const ID = 'c1';
const data = { id: ID, kind: 'Cluster', href: `/api/hyperfleet/v1/clusters/${ID}`, generation: 2 };
const KEY = retryBackoffKey('validation', 'Cluster', ID);
const rerun = (n: number): AdapterRunJob => {
  const id = adapterRunJobId('validation', data, `r-${n}`);
  return { adapter: 'validation', rerun: n, event: reconcileCloudEvent(data, id, new Date(0).toISOString()), backoff_attempts: n };
};
const change = (type: ObjectChange['type'], resourceVersion: string, owner = `Cluster/${ID}/validation`): ObjectChange => ({
  type,
  object: {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'cm', namespace: 'c1', resourceVersion, annotations: { 'decom.io/owner': owner } },
  },
});

describe("WatchTriggers: a watch change runs the owning resource's adapter at once while its work is in progress", () => {
  let queue: InProcessJobQueue;
  let ran: Job<AdapterRunJob>[];
  let triggers: WatchTriggers;
  beforeEach(() => {
    queue = new InProcessJobQueue();
    ran = [];
    queue.process<AdapterRunJob>(adapterRunQueue('validation'), async (job) => void ran.push(job));
    triggers = new WatchTriggers(queue, new Set(['validation']));
  });
  afterEach(() => queue.close());
  /** A waiting entry first reads the shared backoff state (one await), then enqueues. */
  const settled = async () => {
    await new Promise((r) => setImmediate(r));
    await queue.idle();
  };
  const waitedBackoff = () => queue.retryBackoff.set(KEY, { generation: 2, attempts: 1, next_at_ms: Date.now() + 60_000, reason: 'wait' });

  it('a change while the run is in progress enqueues the next run when it ends waiting, as job w-<resourceVersion> without the fallback marker', async () => {
    triggers.begin(KEY, false);
    triggers.onChange(change('DELETED', '41'));
    triggers.end(KEY, { kind: 'wait', rerun: rerun(1) });
    await settled();
    expect(ran.map((j) => j.id)).toEqual([adapterRunJobId('validation', data, 'w-41')]);
    expect(ran[0]!.data).toMatchObject({ rerun: 1, watch: { type: 'DELETED', resource_version: '41' } });
    expect(ran[0]!.data.backoff_attempts).toBeUndefined();
    expect(ran[0]!.data.event.id).toBe(ran[0]!.id);
  });

  it('a change while the resource waits for its backoff re-run enqueues the run at once, once', async () => {
    await waitedBackoff();
    triggers.begin(KEY, false);
    triggers.end(KEY, { kind: 'wait', rerun: rerun(1) });
    expect(triggers.waitingCount()).toBe(1);
    triggers.onChange(change('MODIFIED', '42'));
    triggers.onChange(change('DELETED', '43'));
    await settled();
    expect(ran.map((j) => j.id)).toEqual([adapterRunJobId('validation', data, 'w-42')]);
  });

  it("ignores changes of objects that are not Decom's, of adapters hosted elsewhere, and of work that is done or failed", async () => {
    await waitedBackoff();
    triggers.begin(KEY, false);
    triggers.end(KEY, { kind: 'other' });
    triggers.onChange(change('DELETED', '50'));
    triggers.onChange(change('DELETED', '51', `Cluster/${ID}/other-adapter`));
    triggers.onChange({ type: 'DELETED', object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', resourceVersion: '52' } } });
    await settled();
    expect(ran).toEqual([]);
  });

  it('does not run when another worker finished the work since (the shared backoff state is cleared)', async () => {
    triggers.begin(KEY, false);
    triggers.end(KEY, { kind: 'wait', rerun: rerun(1) });
    triggers.onChange(change('DELETED', '60'));
    await settled();
    expect(ran).toEqual([]);
    expect(triggers.waitingCount()).toBe(0);
  });

  it(`stops re-triggering itself after ${MAX_TRIGGERED_RUNS} triggered runs in a row (the backoff rules again) until a backoff run happens`, async () => {
    for (let i = 0; i < MAX_TRIGGERED_RUNS + 2; i++) {
      triggers.begin(KEY, i > 0);
      triggers.onChange(change('MODIFIED', String(100 + i)));
      triggers.end(KEY, { kind: 'wait', rerun: rerun(i + 1) });
    }
    await settled();
    expect(ran).toHaveLength(MAX_TRIGGERED_RUNS);
    triggers.begin(KEY, false);
    triggers.onChange(change('MODIFIED', '200'));
    triggers.end(KEY, { kind: 'wait', rerun: rerun(50) });
    await settled();
    expect(ran.at(-1)!.id).toBe(adapterRunJobId('validation', data, 'w-200'));
  });
});
