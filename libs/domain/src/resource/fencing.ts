/**
 * Fenced adapter reports: a run of Decom's worker carries a fence, the event's
 * generation and a sequence that grows with every run of that resource and adapter (sent as the
 * `X-Decom-Fence` header). A report from a stale fence is recorded as discarded, never applied.
 * Reports without a fence (any HyperFleet adapter) follow the ingestion rules alone.
 */
import type { ResourceState } from './resource.state.js';
import type { ReportFence } from './report-fence.js';

export type { ReportFence } from './report-fence.js';

/**
 * Why a fenced report is stale, or undefined when it may be ingested:
 * - its run was started for an older generation than the resource's (a newer run owns it), or
 * - a run with a higher sequence already reported for this adapter (the later run won).
 */
export function staleFence(resource: ResourceState, adapter: string, fence: ReportFence | undefined): string | undefined {
  if (!fence) return undefined;
  if (fence.generation < resource.generation) {
    return `stale fence ${fence.generation}.${fence.sequence}: the run was for generation ${fence.generation}, the resource is at ${resource.generation}`;
  }
  const latest = resource.adapter_fences?.[adapter];
  if (latest !== undefined && fence.sequence < latest) {
    return `stale fence ${fence.generation}.${fence.sequence}: a later run of ${adapter} (sequence ${latest}) already reported`;
  }
  return undefined;
}
