/**
 * Resolves an `api_call.url` the way HyperFleet's executor does (§2.1):
 * `/clusters/x` → `{base}/api/hyperfleet/{version}/clusters/x`; paths starting with `api/` or
 * `/api/` are kept; absolute URLs on the base host are reduced to their path (so a resource
 * `href` works); absolute URLs on other hosts are used unchanged.
 * @returns an absolute URL.
 */
export function resolveApiUrl(baseUrl: string, version: string, url: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  let path = url.trim();
  if (/^https?:\/\//i.test(path)) {
    const target = new URL(path);
    if (target.origin !== new URL(base).origin) return path;
    path = `${target.pathname}${target.search}`;
  }
  if (!path.startsWith('/')) path = `/${path}`;
  if (path === '/api' || path.startsWith('/api/')) return `${base}${path}`;
  return `${base}/api/hyperfleet/${version}${path}`;
}
