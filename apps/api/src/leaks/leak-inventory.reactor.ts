/**
 * Records the leak inventory: after a `ForceDeleted` (for the resource and every removed
 * subresource) or a `ForceOrphaned`, per adapter that had not confirmed cleanup (`Finalized=True` in the
 * audit snapshot), the objects still carrying its ownership marker (or its release marker, once the
 * adapter orphaned them) are recorded as `LeakInventoryRecorded` in the resource's history. An adapter
 * with nothing left records nothing (its history would only gain noise). An abandoned adapter (`AdapterFinalized`
 * with `forced`) is inventoried alone, and always: "nothing left" is then the answer its abandoner asked for.
 * A store subscription with a checkpoint: a crash replays the
 * fact and the decider records each inventory once.
 */
import type { CommandBus } from '@nestjs/cqrs';
import { RecordLeakInventoryCommand } from '@decom/application';
import type { AdapterFinalized, AdapterStatus, ForceDeleted, ForceOrphaned, KindRegistry, LeakTrigger } from '@decom/domain';
import type { RecordedEvent } from '@decom/event-store';
import type { Reactor } from '@decom/jobs';
import type { LeakScannerSlot } from './leak-scanner.js';

/** The caller recorded on inventories (the engine itself, not a person). */
export const LEAK_INVENTORY_CALLER = 'decom:leak-inventory';

export class LeakInventoryReactor implements Reactor {
  readonly name = 'leak-inventory';

  constructor(
    private readonly kinds: KindRegistry,
    private readonly slot: LeakScannerSlot,
    private readonly commandBus: CommandBus,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async handle(recorded: RecordedEvent): Promise<void> {
    if (recorded.type === 'ForceDeleted') {
      const data = recorded.data as ForceDeleted['data'];
      const removed = [...data.subresources.map((s) => ({ id: s.id, kind: s.kind })), { id: data.id, kind: data.kind }];
      for (const resource of removed) await this.record(resource, 'ForceDeleted', data.adapter_statuses[resource.id] ?? []);
    } else if (recorded.type === 'ForceOrphaned') {
      const data = recorded.data as ForceOrphaned['data'];
      await this.record({ id: data.id, kind: data.kind }, 'ForceOrphaned', []);
    } else if (recorded.type === 'AdapterFinalized' && (recorded.data as AdapterFinalized['data']).forced) {
      const data = recorded.data as AdapterFinalized['data'];
      await this.inventory({ id: data.id, kind: data.kind }, data.adapter, 'AdapterAbandoned', true);
    }
  }

  private async record(resource: { id: string; kind: string }, trigger: LeakTrigger, statuses: readonly AdapterStatus[]): Promise<void> {
    const scanner = this.slot.current;
    if (!scanner) return;
    const confirmed = new Set(
      statuses.filter((s) => s.conditions.some((c) => c.type === 'Finalized' && c.status === 'True')).map((s) => s.adapter),
    );
    const adapters = [...new Set([...(this.kinds.find(resource.kind)?.required_adapters ?? []), ...statuses.map((s) => s.adapter)])].filter(
      (a) => !confirmed.has(a),
    );
    for (const adapter of adapters) await this.inventory(resource, adapter, trigger, false);
  }

  private async inventory(
    resource: { id: string; kind: string },
    adapter: string,
    trigger: LeakTrigger,
    evenEmpty: boolean,
  ): Promise<void> {
    const scanner = this.slot.current;
    if (!scanner) return;
    const objects = await scanner.inventory(resource.kind, resource.id, adapter);
    if (objects.length > 0 || evenEmpty) {
      await this.commandBus.execute(
        new RecordLeakInventoryCommand(
          {
            type: 'RecordLeakInventory',
            id: resource.id,
            kind: resource.kind,
            adapter,
            trigger,
            objects,
            metadata: { now: this.now().toISOString(), caller: LEAK_INVENTORY_CALLER },
          },
          { caller: LEAK_INVENTORY_CALLER },
        ),
      );
    }
  }
}
