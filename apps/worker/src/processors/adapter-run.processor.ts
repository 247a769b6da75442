/**
 * `adapter-run.<adapter>` job → executor → (the executor PUTs the status itself, over HTTP like any
 * adapter) → re-run with backoff while this adapter's work is still in progress.
 */
import type { ExecutionResult } from '@decom/adapter';
import type { AdapterStatus } from '@decom/domain';
import {
  TerminalError,
  adapterRunGroup,
  adapterRunJobId,
  adapterRunQueue,
  reconcileCloudEvent,
  type AdapterRunJob,
  type Job,
  type JobQueue,
} from '@decom/jobs';
import type { HostedAdapter } from '../adapter-host.js';
import { adapterProgress, type AdapterProgress } from './adapter-progress.js';

export interface AdapterRunTiming {
  /** First re-run delay while work is in progress, in ms. */
  readonly baseDelayMs: number;
  /** Cap of the re-run delay, in ms. */
  readonly maxDelayMs: number;
}

export interface AdapterRunObserver {
  (run: { adapter: string; job: AdapterRunJob; result: ExecutionResult; progress: AdapterProgress }): void;
}

export class AdapterRunProcessor {
  constructor(
    private readonly adapter: HostedAdapter,
    private readonly queue: JobQueue,
    private readonly timing: AdapterRunTiming,
    private readonly observe: AdapterRunObserver = () => undefined,
  ) {}

  register(concurrency = 4): void {
    this.queue.process<AdapterRunJob>(adapterRunQueue(this.adapter.name), (job) => this.handle(job), { concurrency });
  }

  async handle(job: Job<AdapterRunJob>): Promise<void> {
    const { event } = job.data;
    const result = await this.adapter.executor.execute(event.data as never);
    if (result.adapter.errorReason === 'ParameterExtractionFailed' && /NTF-000|no route/i.test(result.adapter.errorMessage ?? '')) {
      throw new TerminalError(`adapter ${this.adapter.name}: ${result.adapter.errorMessage}`);
    }
    const progress = await this.progress(job.data);
    this.observe({ adapter: this.adapter.name, job: job.data, result, progress });
    if (progress.kind === 'wait') {
      const rerun = job.data.rerun + 1;
      const id = adapterRunJobId(this.adapter.name, event.data, `r-${rerun}`);
      const next: AdapterRunJob = { ...job.data, rerun, event: reconcileCloudEvent(event.data, id, new Date().toISOString()) };
      await this.queue.enqueue(adapterRunQueue(this.adapter.name), id, next, {
        delayMs: progress.requeueAfterMs,
        group: adapterRunGroup(this.adapter.name, event.data.id),
      });
    }
  }

  private async progress(job: AdapterRunJob): Promise<AdapterProgress> {
    const href = job.event.data.href;
    const resource = await this.getOrUndefined<{ generation: number; deleted_time?: string }>(href);
    if (resource && resource.generation > job.event.data.generation) {
      // A newer generation has its own job (dispatched by its fact); this chain ends here.
      return { kind: 'done', reason: `superseded by generation ${resource.generation}` };
    }
    const statuses = resource ? await this.getOrUndefined<{ items: AdapterStatus[] }>(`${href}/statuses`) : undefined;
    return adapterProgress({
      ...(resource ? { resource } : {}),
      ...(statuses ? { status: statuses.items.find((s) => s.adapter === this.adapter.name) } : {}),
      adapter: this.adapter.name,
      rerun: job.rerun,
      ...this.timing,
    } as never);
  }

  private async getOrUndefined<T>(url: string): Promise<T | undefined> {
    try {
      return (await this.adapter.api.request({ method: 'GET', url })).body as T;
    } catch (error) {
      if ((error as { name?: string }).name === 'ApiResourceNotFoundError') return undefined;
      throw error;
    }
  }
}
