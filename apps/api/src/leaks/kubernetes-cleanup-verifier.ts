/**
 * Verify before hard delete, Kubernetes side (libs/domain cleanup-verification.ts): for each hosted adapter, the
 * objects of the kinds its task config creates that still carry `decom.io/owner: <kind>/<id>/<adapter>`, found
 * by the marker's labels (one label-selected list call per adapter and kind). Maestro-managed objects are not
 * listed (their clusters are reached through Maestro only), as the leak scan does not list them.
 */
import { listOwned, type ManagedKind, type ResourceTransport } from '@decom/adapter';
import type { CleanupVerifier } from '@decom/application';
import type { CleanupCheck, LeftoverObject, UnverifiedAdapter } from '@decom/domain';

export class KubernetesCleanupVerifier implements CleanupVerifier {
  /**
   * The cluster, once this process reaches it (the bundled server starts after the API and the hard-delete
   * job): until then every check comes back unverified with `unconnected` as the reason, never clean.
   */
  transport: ResourceTransport | undefined;

  constructor(
    /** Hosted adapter → the Kubernetes kinds its task config creates (adapters with none are not hosted here). */
    private readonly kindsByAdapter: ReadonlyMap<string, readonly ManagedKind[]>,
    private readonly unconnected = 'Kubernetes is not connected yet in this process',
  ) {}

  get hostedAdapters(): readonly string[] {
    return [...this.kindsByAdapter.keys()];
  }

  async check(kind: string, id: string, adapters: readonly string[]): Promise<CleanupCheck> {
    const objects: LeftoverObject[] = [];
    const unverified: UnverifiedAdapter[] = [];
    for (const adapter of adapters) {
      const transport = this.transport;
      if (!transport) {
        unverified.push({ adapter, reason: this.unconnected });
        continue;
      }
      try {
        for (const found of await listOwned(transport, this.kindsByAdapter.get(adapter) ?? [], { kind, id, adapter })) {
          objects.push({
            adapter,
            apiVersion: found.apiVersion,
            kind: found.kind,
            ...(found.namespace && { namespace: found.namespace }),
            name: found.name,
            ...(found.terminating && { terminating: true as const }),
          });
        }
      } catch (error) {
        unverified.push({ adapter, reason: (error instanceof Error ? error.message : String(error)).split('\n')[0]! });
      }
    }
    return { adapters: [...adapters], objects, unverified };
  }
}
