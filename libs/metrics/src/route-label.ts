/**
 * HyperFleet's `path` label: the request path with its ids replaced by `-` and its names kept (contract
 * §8.2: `/api/hyperfleet/v1/clusters/abc` → `/api/hyperfleet/v1/clusters/-`), so one series per endpoint
 * whatever the ids. Fastify gives the matched route pattern (`/:plural/:id`); every `:param` becomes `-`,
 * except the ones `literal` keeps: a kind-agnostic route's plural segment is a name, not an id, and
 * dashboards filter on it. `literal(param, value)` must only keep values from a bounded set (configured
 * plurals), so the cardinality stays bounded. A request that matched no route is labelled `unmatched`.
 *
 * @param routePattern the matched route (`request.routeOptions.url`), undefined when none matched
 * @param params the request's decoded path parameters (only read when `literal` is given)
 * @param literal whether a parameter's value is written as is instead of `-`
 */
export function routeLabel(
  routePattern: string | undefined,
  params: Readonly<Record<string, string | undefined>> = {},
  literal?: (param: string, value: string) => boolean,
): string {
  if (!routePattern) return 'unmatched';
  return routePattern
    .replace(/:([A-Za-z0-9_]+)/g, (_match, name: string) => {
      const value = params[name];
      return literal && value !== undefined && literal(name, value) ? value : '-';
    })
    .replace(/\*$/, '-');
}
