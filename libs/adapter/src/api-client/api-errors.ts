import type { HttpMethod } from '../config/task-config.types.js';

/** HyperFleet's "no route" code: the URL is wrong, a config error, not a missing resource. */
export const NO_ROUTE_CODE = 'HYPERFLEET-NTF-000';

/** Base of every failed HyperFleet API call; `status` is absent for transport failures. */
export abstract class ApiCallError extends Error {
  constructor(
    readonly method: HttpMethod,
    readonly url: string,
    readonly status: number | undefined,
    readonly body: unknown,
    readonly attempts: number,
    message: string,
  ) {
    super(message);
  }
}

/** 404 for a resource that does not exist (any code but NTF-000): the adapter stops gracefully (§2.5). */
export class ApiResourceNotFoundError extends ApiCallError {
  override readonly name = 'ApiResourceNotFoundError';
}

/** 404 with `HYPERFLEET-NTF-000`: no such endpoint, i.e. a wrong `url` in the config (HYPERFLEET-1247). */
export class ApiRouteNotFoundError extends ApiCallError {
  override readonly name = 'ApiRouteNotFoundError';
}

/** Any other non-2xx answer, after retries for 408/429/5xx. */
export class ApiHttpError extends ApiCallError {
  override readonly name = 'ApiHttpError';
}

/** No HTTP answer at all (connection refused, DNS, timeout), after retries. */
export class ApiTransportError extends ApiCallError {
  override readonly name = 'ApiTransportError';
}

/** `detail` (RFC 9457) or `reason`/`message` of an error body, for messages. */
export function problemDetail(body: unknown): string | undefined {
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    for (const key of ['detail', 'message', 'reason']) if (typeof b[key] === 'string') return b[key] as string;
  }
  return typeof body === 'string' && body.length > 0 ? body.slice(0, 300) : undefined;
}

/**
 * The error for a non-2xx answer: 404 with `HYPERFLEET-NTF-000` = wrong URL, other 404 = the
 * resource is gone, anything else = `ApiHttpError` (§2.5).
 */
export function apiFailure(method: HttpMethod, url: string, status: number, body: unknown, attempts: number): ApiCallError {
  const detail = problemDetail(body);
  const message = `${method} ${url} returned ${status}${detail ? `: ${detail}` : ''}`;
  if (status === 404) {
    const code = body && typeof body === 'object' ? (body as { code?: unknown }).code : undefined;
    if (code === NO_ROUTE_CODE)
      return new ApiRouteNotFoundError(method, url, status, body, attempts, `${message} (no such endpoint: check the url)`);
    return new ApiResourceNotFoundError(method, url, status, body, attempts, message);
  }
  return new ApiHttpError(method, url, status, body, attempts, message);
}
