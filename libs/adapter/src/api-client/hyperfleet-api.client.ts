import { outgoingTraceHeaders } from '@decom/tracing';
import { apiFailure, ApiTransportError } from './api-errors.js';
import { resolveApiUrl } from './api-url.js';
import { undiciFetch } from './undici-fetch.js';
import type { ApiRequest, ApiResponse, HyperfleetApiClient, HyperfleetApiClientOptions } from './hyperfleet-api.types.js';
import { isRetryableStatus, retryDelayMs } from './retry-backoff.js';

/** The part of `fetch` the client uses (the global `fetch` is one; the default is `undiciFetch`). */
export type FetchLike = (
  url: string,
  init: { method: string; headers: Record<string, string>; body: string | undefined; signal: AbortSignal },
) => Promise<{ readonly ok: boolean; readonly status: number; text(): Promise<string> }>;

/** Side-effect providers, injectable so tests control time and randomness. */
export interface HyperfleetApiRuntime {
  /** Default `undiciFetch` (a third to a quarter of the global fetch's CPU per call). */
  readonly fetch?: FetchLike;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly random?: () => number;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function parseBody(text: string): unknown {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * `fetch`-based HyperFleet API client: URL prefix rules, per-request timeout, retries on
 * 408/429/5xx and transport errors with jittered backoff.
 * @see HyperFleet: hyperfleet-adapter docs/configuration.md.
 */
export class HttpHyperfleetApiClient implements HyperfleetApiClient {
  private readonly options: Required<Omit<HyperfleetApiClientOptions, 'bearerToken'>> & Pick<HyperfleetApiClientOptions, 'bearerToken'>;
  private readonly fetchFn: FetchLike;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;

  constructor(options: HyperfleetApiClientOptions, runtime: HyperfleetApiRuntime = {}) {
    this.options = {
      version: 'v1',
      timeoutMs: 10_000,
      retryAttempts: 3,
      retryBackoff: 'exponential',
      baseDelayMs: 1_000,
      maxDelayMs: 30_000,
      defaultHeaders: {},
      ...options,
    };
    this.fetchFn = runtime.fetch ?? undiciFetch;
    this.sleep = runtime.sleep ?? defaultSleep;
    this.random = runtime.random ?? Math.random;
  }

  /** Absolute URL for a config `url` (see `resolveApiUrl`). */
  resolveUrl(url: string): string {
    return resolveApiUrl(this.options.baseUrl, this.options.version, url);
  }

  /**
   * Sends one logical request (with retries).
   * @returns the 2xx response with its parsed body.
   * @throws ApiResourceNotFoundError on 404 (not NTF-000); ApiRouteNotFoundError on 404 NTF-000;
   *   ApiHttpError on other non-2xx; ApiTransportError when no answer came back.
   */
  async request(request: ApiRequest): Promise<ApiResponse> {
    const url = this.resolveUrl(request.url);
    const attempts = Math.max(1, request.retryAttempts ?? this.options.retryAttempts);
    const backoff = request.retryBackoff ?? this.options.retryBackoff;
    let lastError: Error | undefined;
    let lastStatus: { status: number; body: unknown } | undefined;
    for (let attempt = 1; attempt <= attempts; attempt += 1) {
      if (attempt > 1) {
        await this.sleep(retryDelayMs(attempt - 1, backoff, this.options.baseDelayMs, this.options.maxDelayMs, this.random));
      }
      let response: Awaited<ReturnType<FetchLike>>;
      let text: string;
      try {
        const token = await this.options.bearerToken?.();
        response = await this.fetchFn(url, this.init(request, token));
        text = await response.text();
      } catch (error) {
        lastError = error as Error;
        lastStatus = undefined;
        continue;
      }
      const body = parseBody(text);
      if (response.ok) return { method: request.method, url, status: response.status, body, attempts: attempt };
      lastStatus = { status: response.status, body };
      if (!isRetryableStatus(response.status)) return this.fail(request, url, response.status, body, attempt);
    }
    if (lastStatus) return this.fail(request, url, lastStatus.status, lastStatus.body, attempts);
    const reason =
      lastError?.name === 'TimeoutError' ? `timed out after ${request.timeoutMs ?? this.options.timeoutMs} ms` : lastError?.message;
    throw new ApiTransportError(
      request.method,
      url,
      undefined,
      undefined,
      attempts,
      `${request.method} ${url} failed after ${attempts} attempt(s): ${reason}`,
    );
  }

  private init(request: ApiRequest, token: string | undefined): Parameters<FetchLike>[1] {
    // Inside a trace (an adapter-run job), the API records the same trace_id (@decom/tracing).
    const headers: Record<string, string> = {
      Accept: 'application/json',
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...outgoingTraceHeaders(),
      ...this.options.defaultHeaders,
      ...request.headers,
    };
    let body: string | undefined;
    if (request.body !== undefined) {
      body = typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
      if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['Content-Type'] = 'application/json';
    }
    return {
      method: request.method,
      headers,
      body,
      signal: AbortSignal.timeout(request.timeoutMs ?? this.options.timeoutMs),
    };
  }

  private fail(request: ApiRequest, url: string, status: number, body: unknown, attempts: number): never {
    throw apiFailure(request.method, url, status, body, attempts);
  }
}
