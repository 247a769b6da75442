import type { HttpMethod, RetryBackoff } from '../config/task-config.types.js';

/**
 * HyperFleet API client settings (`clients.hyperfleet_api` of the deployment config), with
 * HyperFleet's defaults: version v1, timeout 10 s, 3 retries, exponential backoff 1 s..30 s.
 * @see HyperFleet: hyperfleet-adapter docs/configuration.md.
 */
export interface HyperfleetApiClientOptions {
  /** e.g. `http://localhost:8000`; relative URLs are resolved against it. */
  readonly baseUrl: string;
  readonly version?: string;
  readonly timeoutMs?: number;
  /** Total attempts, at least 1 (HyperFleet's `retry_attempts`, default 3). */
  readonly retryAttempts?: number;
  readonly retryBackoff?: RetryBackoff;
  readonly baseDelayMs?: number;
  readonly maxDelayMs?: number;
  readonly defaultHeaders?: Readonly<Record<string, string>>;
  /** Bearer token for `Authorization`, asked before every attempt (a token file, a minted token); none = no header. */
  readonly bearerToken?: () => Promise<string | undefined>;
}

/** One HTTP request; `url` is relative (`/clusters/x`), `api/...`, or absolute. */
export interface ApiRequest {
  readonly method: HttpMethod;
  readonly url: string;
  /** Sent as is when a string (rendered templates are JSON text), JSON-encoded otherwise. */
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
  readonly retryAttempts?: number;
  readonly retryBackoff?: RetryBackoff;
}

/** A 2xx answer. `body` is parsed JSON, the raw text when not JSON, `undefined` when empty. */
export interface ApiResponse {
  readonly method: HttpMethod;
  /** Absolute URL that was called. */
  readonly url: string;
  readonly status: number;
  readonly body: unknown;
  /** Attempts made (1 = no retry). */
  readonly attempts: number;
}

/**
 * What the executor needs from the HyperFleet API. `HttpHyperfleetApiClient` is the real one;
 * a dry run can answer from recorded responses instead.
 */
export interface HyperfleetApiClient {
  /** Absolute URL a config `url` resolves to. */
  resolveUrl(url: string): string;
  /**
   * @throws ApiResourceNotFoundError, ApiRouteNotFoundError, ApiHttpError, ApiTransportError.
   */
  request(request: ApiRequest): Promise<ApiResponse>;
}
