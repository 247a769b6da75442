/**
 * Turns recorded facts into jobs (STYLE §3: a store subscription with a stored checkpoint, not an
 * in-memory event handler). Run by a `ReactorRunner`: its checkpoint advances only after the jobs were
 * enqueued, and deterministic job ids make a replay after a crash harmless (at-least-once, deduplicated).
 *
 * Triggers: a resource created or changed (generation bump) and `DeletionRequested` → one adapter run per
 * required adapter; `DeletionRequested`, `AdapterFinalized` and a child's `HardDeleted` → a hard-delete check.
 * Re-runs while work is in progress are requested by the adapter-run processor itself.
 */
import { isResourceEvent, upcastResourceEvent, type KindRegistry } from '@decom/domain';
import type { RecordedEvent } from '@decom/event-store';
import type { ReconcileEventData } from './job-names.js';
import { enqueueAdapterRun, enqueueHardDeleteCheck } from './job-dispatch.js';
import type { JobQueue } from './job-queue.port.js';
import type { ResourceAddressBook } from './resource-address-book.js';
import type { Reactor } from './reactor-runner.js';

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

  async handle(recorded: RecordedEvent): Promise<void> {
    if (!isResourceEvent({ type: recorded.type })) return;
    const event = upcastResourceEvent(recorded);
    switch (event.type) {
      case 'ResourceCreated':
      case 'SpecChanged':
        await this.readSideCaughtUp(recorded.position);
        return this.dispatchAdapters(event.data.kind, event.data.id, event.data.generation, recorded);
      case 'DeletionRequested':
        await this.readSideCaughtUp(recorded.position);
        await this.dispatchAdapters(event.data.kind, event.data.id, event.data.generation, recorded);
        return this.checkHardDelete(event.data.kind, event.data.id, `deletion-${recorded.position}`);
      case 'AdapterFinalized':
        await this.readSideCaughtUp(recorded.position);
        return this.checkHardDelete(event.data.kind, event.data.id, `finalized-${recorded.position}`);
      case 'ResourceUnpaused':
      case 'ForceOrphaned':
        // Seed 003/004: a lifted pause or a force-orphan changes what adapters must do, and may open the gate.
        await this.readSideCaughtUp(recorded.position);
        {
          // An unpause may release ancestors too (a paused dependent holds a deleting parent): the whole tree.
          const from = event.type === 'ResourceUnpaused' ? await this.addresses.root(event.data.kind, event.data.id) : event.data;
          return this.redispatchSubtree(from.kind, from.id, `${event.type === 'ResourceUnpaused' ? 'unpaused' : 'force-orphan'}-${recorded.position}`);
        }
      case 'HardDeleted':
        // Any removal of a child (gate or force delete) may open its owner's gate; a no-op when the owner went too.
        if (!event.data.owner_references) return;
        await this.readSideCaughtUp(recorded.position);
        return this.checkHardDelete(event.data.owner_references.kind, event.data.owner_references.id, `child-${recorded.position}`);
      default:
        return;
    }
  }

  private async dispatchAdapters(kind: string, id: string, generation: number, recorded: RecordedEvent): Promise<void> {
    const data: ReconcileEventData = { ...(await this.addresses.address(kind, id)), generation };
    for (const adapter of this.kinds.find(kind)?.required_adapters ?? []) {
      if (this.isDispatchable(adapter)) await enqueueAdapterRun(this.queue, adapter, data, recorded.recorded_time);
    }
  }

  /** Re-runs every adapter and re-checks the gate for the resource and its stored descendants. */
  private async redispatchSubtree(kind: string, id: string, trigger: string): Promise<void> {
    for (const member of await this.addresses.subtree(kind, id)) {
      const data: ReconcileEventData = { ...(await this.addresses.address(member.kind, member.id)), generation: member.generation };
      for (const adapter of this.kinds.find(member.kind)?.required_adapters ?? []) {
        if (this.isDispatchable(adapter)) await enqueueAdapterRun(this.queue, adapter, data, new Date().toISOString(), trigger);
      }
      await this.checkHardDelete(member.kind, member.id, trigger);
    }
  }

  private async checkHardDelete(kind: string, id: string, trigger: string): Promise<void> {
    await enqueueHardDeleteCheck(this.queue, kind, id, trigger);
  }
}
