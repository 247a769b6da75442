import type { KubeObject } from './resource-transport.port.js';

/** Annotation every HyperFleet-managed object carries with the resource generation it was applied for. */
export const GENERATION_ANNOTATION = 'hyperfleet.io/generation';

/** The object's `hyperfleet.io/generation` annotation as an integer; missing or malformed = 0. */
export function generationOf(object: KubeObject | undefined): number {
  const text = object?.metadata?.annotations?.[GENERATION_ANNOTATION];
  const value = text === undefined ? NaN : Number.parseInt(text, 10);
  return Number.isFinite(value) ? value : 0;
}

/**
 * Among several label-selector matches, the highest generation wins; equal generations are
 * ordered by name so the pick is deterministic (§2.2, seeds/000 edge case #10).
 */
export function newestByGeneration(objects: readonly KubeObject[]): KubeObject | undefined {
  const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...objects].sort((a, b) => generationOf(b) - generationOf(a) || byName(a.metadata.name, b.metadata.name))[0];
}
