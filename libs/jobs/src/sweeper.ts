/**
 * The Sentinel-equivalent safety net (contract §3; Decom §7 "a Sentinel-style sweep only recovers what was
 * lost"): re-dispatches adapter runs and hard-delete checks for every resource whose `Reconciled` is False
 * and has not moved for `debounceMs`. Run once at start (the in-process queue forgets jobs on a crash) and
 * then every `intervalMs`. Job ids carry the sweep's time bucket, so one sweep dispatches once.
 */
import type { KindRegistry } from '@decom/domain';
import type { PendingWork } from '@decom/projections';
import {
  HARD_DELETE_QUEUE,
  adapterRunGroup,
  adapterRunJobId,
  adapterRunQueue,
  hardDeleteJobId,
  reconcileCloudEvent,
  type AdapterRunJob,
  type HardDeleteJob,
} from './job-names.js';
import type { JobQueue } from './job-queue.port.js';
import type { ResourceAddressBook } from './resource-address-book.js';

export interface SweeperOptions {
  readonly intervalMs: number;
  /** Minimum time a resource stays un-Reconciled before the sweep re-dispatches it (Sentinel default 10 s). */
  readonly debounceMs: number;
}

export class Sweeper {
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;

  constructor(
    private readonly kinds: KindRegistry,
    private readonly queue: JobQueue,
    private readonly addresses: ResourceAddressBook,
    private readonly pending: () => Promise<PendingWork[]>,
    private readonly options: SweeperOptions,
    private readonly clock: () => number = Date.now,
    private readonly onError: (error: unknown) => void = () => undefined,
    private readonly isDispatchable: (adapter: string) => boolean = () => true,
  ) {}

  /** One sweep; `ignoreDebounce` for the start-up recovery. Returns how many jobs were enqueued. */
  async sweepOnce(ignoreDebounce = false): Promise<number> {
    const now = this.clock();
    const bucket = `sweep-${Math.floor(now / this.options.intervalMs)}${ignoreDebounce ? '-start' : ''}`;
    let enqueued = 0;
    for (const work of await this.pending()) {
      const age = now - Date.parse(work.reconciled_updated_time);
      if (!ignoreDebounce && !(age >= this.options.debounceMs)) continue;
      const address = await this.addresses.address(work.kind, work.id);
      const data = { ...address, generation: work.generation };
      for (const adapter of this.kinds.find(work.kind)?.required_adapters ?? []) {
        if (!this.isDispatchable(adapter)) continue;
        const id = adapterRunJobId(adapter, data, bucket);
        const job: AdapterRunJob = { adapter, event: reconcileCloudEvent(data, id, new Date(now).toISOString()), rerun: 0 };
        if (await this.queue.enqueue(adapterRunQueue(adapter), id, job, { group: adapterRunGroup(adapter, work.id) })) enqueued++;
      }
      if (work.deleted_time) {
        const job: HardDeleteJob = { id: work.id, kind: work.kind };
        if (await this.queue.enqueue(HARD_DELETE_QUEUE, hardDeleteJobId(work.kind, work.id, bucket), job, { group: `hard-delete.${work.id}` })) enqueued++;
      }
    }
    return enqueued;
  }

  start(): void {
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.sweepOnce().catch((error) => {
        this.onError(error);
        return 0;
      });
      void this.running.finally(() => (this.running = undefined));
    }, this.options.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }
}
