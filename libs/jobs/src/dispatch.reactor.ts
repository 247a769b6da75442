/**
 * Turns recorded facts into jobs (a store subscription with a stored checkpoint, not an
 * in-memory event handler). Run by a `ReactorRunner`: its checkpoint advances only after the jobs were
 * enqueued, and deterministic job ids make a replay after a crash harmless (at-least-once, deduplicated).
 *
 * Triggers: a resource created or changed (generation bump) and `DeletionRequested` → one adapter run per
 * required adapter; `DeletionRequested`, `AdapterFinalized` and a child's `HardDeleted` → a hard-delete check.
 * Re-runs while work is in progress are requested by the adapter-run processor itself.
 *
 * Deletion order: a deleting resource whose stored dispatch decision holds it (Foreground dependents, InUse,
 * DependencyCycle; the domain's `deletionStatus`, read through `dispatchOf`) gets no adapter run. A `HardDeleted` releases the
 * removed resource's ancestors and the resources it referenced: each that is no longer held gets its adapters
 * (the deletion's frozen set) dispatched with the same deterministic id, so one already dispatched is not run twice.
 * The sweeper applies the same rule, so a release lost here is recovered by the next sweep.
 */
import { deletionAdaptersToRun, dispatchOf, isResourceEvent, upcastResourceEvent, type KindRegistry } from '@decom/domain';
import type { RecordedEvent } from '@decom/event-store';
import type { ReconcileEventData } from './job-names.js';
import { enqueueAdapterRun, enqueueHardDeleteCheck } from './job-dispatch.js';
import type { JobQueue } from './job-queue.port.js';
import type { ResourceAddressBook } from './resource-address-book.js';
import type { Reactor } from './reactor-runner.js';
import { traceContextOf, type TraceContext } from '@decom/tracing';

export class DispatchReactor implements Reactor {
  readonly name = 'dispatch';

  constructor(
    private readonly kinds: KindRegistry,
    private readonly queue: JobQueue,
    private readonly addresses: ResourceAddressBook,
    /** Resolves once the read side has applied `position` (jobs must not outrun the API's reads). */
    private readonly readSideCaughtUp: (position: number) => Promise<void>,
    /** Adapters some worker serves; others (e.g. external adapters reporting over HTTP) get no job. */
    private readonly isDispatchable: (adapter: string) => boolean = () => true,
  ) {}

  /**
   * The jobs a fact causes carry its trace (its metadata `trace_id`): handed to each enqueue, not entered as
   * an async context (which would make every promise of the process pay for propagation).
   */
  async handle(recorded: RecordedEvent): Promise<void> {
    if (!isResourceEvent({ type: recorded.type })) return;
    const traceId = recorded.metadata?.['trace_id'];
    return this.react(recorded, typeof traceId === 'string' && traceId !== '' ? traceContextOf(traceId) : undefined);
  }

  private async react(recorded: RecordedEvent, trace: TraceContext | undefined): Promise<void> {
    const event = upcastResourceEvent(recorded);
    switch (event.type) {
      case 'ResourceCreated':
      case 'SpecChanged':
        await this.readSideCaughtUp(recorded.position);
        return this.dispatchAdapters(event.data.kind, event.data.id, event.data.generation, recorded, trace);
      case 'DeletionRequested': {
        await this.readSideCaughtUp(recorded.position);
        const view = await this.addresses.view(event.data.id);
        // Held (Foreground dependents, InUse, cycle): released by a HardDeleted or the sweeper.
        if (!view || dispatchOf(view)?.action !== 'hold') {
          await this.dispatchAdapters(event.data.kind, event.data.id, event.data.generation, recorded, trace, event.data.required_adapters);
        }
        return this.checkHardDelete(event.data.kind, event.data.id, `deletion-${recorded.position}`, trace);
      }
      case 'AdapterFinalized':
        await this.readSideCaughtUp(recorded.position);
        return this.checkHardDelete(event.data.kind, event.data.id, `finalized-${recorded.position}`, trace);
      case 'ResourceUnpaused':
      case 'ForceOrphaned':
        // Seed 003/004: a lifted pause or a force-orphan changes what adapters must do, and may open the gate.
        await this.readSideCaughtUp(recorded.position);
        {
          // An unpause may release ancestors too (a paused dependent holds a deleting parent): the whole tree.
          const from = event.type === 'ResourceUnpaused' ? await this.addresses.root(event.data.kind, event.data.id) : event.data;
          return this.redispatchSubtree(
            from.kind,
            from.id,
            `${event.type === 'ResourceUnpaused' ? 'unpaused' : 'force-orphan'}-${recorded.position}`,
            trace,
          );
        }
      case 'HardDeleted': {
        await this.readSideCaughtUp(recorded.position);
        // The removal may release its ancestors (Foreground) and what it referenced (InUse).
        const owner = event.data.owner_references;
        const candidates = [
          ...(owner ? [owner, ...(await this.addresses.ancestors(owner.kind, owner.id))] : []),
          ...Object.values(event.data.references ?? {}).flat(),
        ];
        const seen = new Set<string>();
        for (const candidate of candidates) {
          if (seen.has(candidate.id)) continue;
          seen.add(candidate.id);
          await this.releaseIfUnblocked(candidate.id, trace);
        }
        // Any removal of a child (gate or force delete) may open its owner's gate; a no-op when the owner went too.
        if (!owner) return;
        return this.checkHardDelete(owner.kind, owner.id, `child-${recorded.position}`, trace);
      }
      default:
        return;
    }
  }

  private async dispatchAdapters(
    kind: string,
    id: string,
    generation: number,
    recorded: RecordedEvent,
    trace: TraceContext | undefined,
    adapters?: readonly string[],
  ): Promise<void> {
    const data: ReconcileEventData = { ...(await this.addresses.address(kind, id)), generation };
    for (const adapter of adapters ?? this.kinds.find(kind)?.required_adapters ?? []) {
      if (this.isDispatchable(adapter)) await enqueueAdapterRun(this.queue, adapter, data, recorded.recorded_time, undefined, data, trace);
    }
  }

  /** Dispatches a deleting resource's adapters (its frozen set, the DeletionRequested job ids) once nothing holds it. */
  private async releaseIfUnblocked(id: string, trace: TraceContext | undefined): Promise<void> {
    const view = await this.addresses.view(id);
    if (!view?.deleted_time || dispatchOf(view)?.action === 'hold') return;
    const data: ReconcileEventData = { ...(await this.addresses.address(view.kind, view.id)), generation: view.generation };
    for (const adapter of deletionAdaptersToRun(view, this.kinds.find(view.kind)?.required_adapters ?? [])) {
      if (this.isDispatchable(adapter))
        await enqueueAdapterRun(this.queue, adapter, data, new Date().toISOString(), undefined, data, trace);
    }
  }

  /** Re-runs every adapter and re-checks the gate for the resource and its stored descendants. */
  private async redispatchSubtree(kind: string, id: string, trigger: string, trace: TraceContext | undefined): Promise<void> {
    for (const member of await this.addresses.subtree(kind, id)) {
      const data: ReconcileEventData = { ...(await this.addresses.address(member.kind, member.id)), generation: member.generation };
      const view = await this.addresses.view(member.id);
      // A held deleting member stays held; others run what their deletion still needs (deletionAdaptersToRun).
      const configured = this.kinds.find(member.kind)?.required_adapters ?? [];
      const adapters = view?.deleted_time ? deletionAdaptersToRun(view, configured) : configured;
      for (const adapter of adapters) {
        if (this.isDispatchable(adapter))
          await enqueueAdapterRun(this.queue, adapter, data, new Date().toISOString(), trigger, data, trace);
      }
      await this.checkHardDelete(member.kind, member.id, trigger, trace);
    }
  }

  private async checkHardDelete(kind: string, id: string, trigger: string, trace: TraceContext | undefined): Promise<void> {
    await enqueueHardDeleteCheck(this.queue, kind, id, trigger, trace);
  }
}
