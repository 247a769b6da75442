import { fetchEngine } from './engine-client.js';

/**
 * The plural of `kind` (a kind name or a plural, any case) from the engine's `GET /api/decom/v1/kinds`.
 * @throws Error naming the known kinds for an unknown one; the API's status and detail when it refuses.
 */
export async function pluralOf(base: string, kind: string, headers: Record<string, string>): Promise<string> {
  const response = await fetchEngine(base, '/api/decom/v1/kinds', { headers });
  const answer = (await response.json().catch(() => undefined)) as
    { items?: { kind: string; plural: string }[]; detail?: string } | undefined;
  if (!response.ok || !answer?.items) throw new Error(`${response.status} ${answer?.detail ?? response.statusText}`);
  const wanted = kind.toLowerCase();
  const found = answer.items.find((k) => k.kind.toLowerCase() === wanted || k.plural.toLowerCase() === wanted);
  if (!found) throw new Error(`unknown kind '${kind}': one of ${answer.items.map((k) => k.kind).join(', ')}`);
  return found.plural;
}
