/**
 * The leak scan: objects in the managed cluster carrying Decom's ownership
 * marker (`decom.io/owner: <kind>/<id>/<adapter>`) for a resource this installation created and that no
 * longer exists (markers naming resources it never had are another installation's), over the Kubernetes
 * kinds the adapters' task configs create (libs/adapter leaks/marked-objects.ts). Maestro-managed objects
 * are not scanned (their clusters are reached through Maestro only).
 */
import { OWNER_ANNOTATION, listMarked, markedFor, type ManagedKind, type MarkedObject, type ResourceTransport } from '@decom/adapter';
import type { LeakedObject } from '@decom/domain';

/** One leaked object as the API lists it: the object and the resource its marker names. */
export interface LeakJson {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace?: string;
  readonly name: string;
  readonly uid?: string;
  readonly owner: { readonly kind: string; readonly id: string; readonly adapter: string };
}

/** The last completed scan: how many leaks, when (RFC 3339). */
export interface LeakScanSummary {
  readonly count: number;
  readonly scanned_time: string;
}

/** What this installation knows of a marker's resource (LeakScanner's `ownerState`). */
export type OwnerState = 'live' | 'gone' | 'unknown';

export class LeakScanner {
  private last: LeakScanSummary | undefined;

  constructor(
    private readonly transport: ResourceTransport,
    private readonly kinds: readonly ManagedKind[],
    /**
     * The marker's resource as this installation knows it: `live` (still exists), `gone` (created here,
     * hard- or force-deleted since) or `unknown` (never created here: another Decom installation on the same
     * cluster wrote the marker, so its objects are never this one's leaks).
     */
    private readonly ownerState: (id: string) => Promise<OwnerState>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The last completed scan (the periodic one or an API query), if any. */
  get lastScan(): LeakScanSummary | undefined {
    return this.last;
  }

  /**
   * Every object whose owner marker names a resource that no longer exists, sorted by owner, kind, name.
   * @throws TransportError when the cluster cannot be listed (never "no leaks").
   */
  async scan(): Promise<LeakJson[]> {
    const marked = await listMarked(this.transport, this.kinds);
    const states = new Map<string, OwnerState>();
    const leaks: LeakJson[] = [];
    for (const object of marked) {
      const owner = object.owner;
      // Terminating objects are already going (a namespace the controller is emptying, say).
      if (!owner || object.terminating) continue;
      if (!states.has(owner.id)) states.set(owner.id, await this.ownerState(owner.id));
      // Only an owner this installation created and has since removed makes a leak: a marker naming a
      // resource it never had belongs to another installation sharing the cluster (deleting it would
      // destroy that one's live objects).
      if (states.get(owner.id) !== 'gone') continue;
      leaks.push({ ...describe(object), owner });
    }
    leaks.sort((a, b) =>
      `${a.owner.id} ${a.kind} ${a.namespace ?? ''} ${a.name}`.localeCompare(`${b.owner.id} ${b.kind} ${b.namespace ?? ''} ${b.name}`),
    );
    this.last = { count: leaks.length, scanned_time: this.now().toISOString() };
    return leaks;
  }

  /** Objects still marked for `<kind>/<id>/<adapter>` (owned, or released from it), for an inventory. */
  async inventory(kind: string, id: string, adapter: string): Promise<LeakedObject[]> {
    const marked = markedFor(await listMarked(this.transport, this.kinds), { kind, id, adapter });
    return marked.map((o) => ({ ...describe(o), adapter }));
  }

  /**
   * Deletes each leak (propagation Background; already gone counts as done) after re-reading it: an object
   * whose marker changed since the scan (adopted, re-created) is skipped. @returns the ones deleted.
   */
  async remove(leaks: readonly LeakJson[]): Promise<LeakJson[]> {
    const removed: LeakJson[] = [];
    for (const leak of leaks) {
      const ref = { apiVersion: leak.apiVersion, kind: leak.kind, name: leak.name, ...(leak.namespace && { namespace: leak.namespace }) };
      const current = await this.transport.get(ref);
      if (!current) continue;
      const mark = `${leak.owner.kind}/${leak.owner.id}/${leak.owner.adapter}`;
      if (current.metadata.annotations?.[OWNER_ANNOTATION] !== mark || (leak.uid && current.metadata.uid !== leak.uid)) continue;
      await this.transport.delete(ref, 'Background');
      removed.push(leak);
    }
    return removed;
  }
}

function describe(object: MarkedObject): Omit<LeakJson, 'owner'> {
  return {
    apiVersion: object.apiVersion,
    kind: object.kind,
    ...(object.namespace && { namespace: object.namespace }),
    name: object.name,
    ...(object.uid && { uid: object.uid }),
  };
}

/**
 * Where the API finds the scanner: the composition root fills it once Kubernetes is known (the bundled
 * server starts after the API); empty in a process without Kubernetes (role `api` without KUBECONFIG).
 */
export class LeakScannerSlot {
  current: LeakScanner | undefined;
}
