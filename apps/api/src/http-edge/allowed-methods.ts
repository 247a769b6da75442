/**
 * Which methods a path answers, for `405 Method Not Allowed` with an `Allow` header (RFC 9110 §15.5.6)
 * instead of 404 when the path exists but not for this method (`PUT /clusters`). A second find-my-way
 * router (the one Fastify itself uses) mirrors every route Fastify registers (`onRoute`), so matching
 * follows Fastify's rules exactly; a path only counts as known when its `:plural`/`:childPlural`
 * segments name configured kinds (`/bogus` matches `/:plural` but is no endpoint).
 */
import Router from 'find-my-way';

/** Methods probed, in the order `Allow` lists them. HEAD answers wherever GET does (Fastify's HEAD routes). */
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

export type KnownParams = (params: Readonly<Record<string, string | undefined>>) => boolean;

export class AllowedMethods {
  private readonly router = Router({ ignoreTrailingSlash: false, caseSensitive: true });

  constructor(private readonly isKnown: KnownParams) {}

  /**
   * Mirrors one Fastify route (`onRoute` hook). The catch-all (`*`, `/*`: the CORS preflight route) is skipped,
   * it would make every path known; a prefix wildcard (`/ui/*`) is kept, so `DELETE /ui/` is a 405.
   */
  add(method: string | readonly string[], url: string): void {
    if (url === '*' || url === '/*') return;
    const methods = (Array.isArray(method) ? method : [method as string]).map((m) => m.toUpperCase());
    for (const upper of methods.includes('GET') ? [...methods, 'HEAD'] : methods) {
      if (!(METHODS as readonly string[]).includes(upper) || this.router.hasRoute(upper as Router.HTTPMethod, url)) continue;
      this.router.on(upper as Router.HTTPMethod, url, () => undefined);
    }
  }

  /**
   * For a request that a parameter route matched although its `:plural`/`:childPlural` name no kind
   * (`POST /clusters/{id}/statuses` caught by `POST /:plural/:id/:childPlural`): the methods the path does
   * answer, so the caller gets 405 rather than the route's 404. Empty when the match is genuine.
   */
  misrouted(params: Readonly<Record<string, string | undefined>>, url: string): string[] {
    return this.isKnown(params) ? [] : this.of(url);
  }

  /**
   * The methods `path` (query string ignored) answers; empty when the path is unknown. A parameter left
   * empty (`/clusters/` matching `/:plural/:id`) names nothing, so such a path is unknown (404), as the
   * routes themselves treat it.
   */
  of(url: string): string[] {
    const path = url.split('?')[0] ?? url;
    return METHODS.filter((method) => {
      const found = this.router.find(method, path);
      // A wildcard may match nothing (`/ui/` is `/ui/*` with `*` empty); a named parameter may not.
      return (
        found !== null && Object.entries(found.params).every(([name, value]) => name === '*' || value !== '') && this.isKnown(found.params)
      );
    });
  }
}
