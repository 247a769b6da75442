/**
 * HyperFleet's `path` label: the route with its ids replaced by `-` (contract §8.2), so one series per
 * endpoint whatever the ids. Fastify gives the matched route pattern (`/clusters/:id`); every `:param`
 * becomes `-`. A request that matched no route is labelled `unmatched` (bounded cardinality).
 */
export function routeLabel(routePattern: string | undefined): string {
  if (!routePattern) return 'unmatched';
  return routePattern.replace(/:[A-Za-z0-9_]+/g, '-').replace(/\*$/, '-');
}
