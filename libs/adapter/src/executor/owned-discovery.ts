import { newestByGeneration } from '../transport/newest-generation.js';
import type { KubeObject } from '../transport/resource-transport.port.js';
import { isOwnedBy } from './ownership.js';
import type { Target } from './resource-target.js';

/** A discovery split by ownership: `owned` is what the executor may act on and CEL sees. */
export interface OwnedDiscovery {
  readonly owned?: KubeObject;
  /** The newest match that is not ours, when no owned one matched. */
  readonly foreign?: KubeObject;
}

/**
 * Runs a resource's discovery and keeps only objects carrying `mark` (seed 003: "deletion never
 * touches an object that is not ours, whatever discovery matched"). A selector discovery filters
 * before picking the newest generation, so a foreign newer match never hides our own object.
 * @throws TransportError (never turned into "absent").
 */
export async function discoverOwned(target: Target, mark: string): Promise<OwnedDiscovery> {
  const { transport, query } = target;
  const all =
    query.byName === undefined && transport.discoverAll
      ? await transport.discoverAll(query)
      : [await transport.discover(query)].filter((o): o is KubeObject => o !== undefined);
  const owned = newestByGeneration(all.filter((o) => isOwnedBy(o, mark)));
  if (owned) return { owned };
  const foreign = newestByGeneration(all);
  return foreign ? { foreign } : {};
}
