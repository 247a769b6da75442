import type { ApiRequest, ApiResponse, HyperfleetApiClient } from './hyperfleet-api.types.js';

/**
 * A HyperFleet API client for the duration of one adapter run: a GET answered 2xx is
 * remembered by its absolute URL and a second GET of that URL is answered from memory, until the run
 * sends anything else (PUT, POST, PATCH, DELETE), which forgets every remembered answer. Also keeps the
 * last 2xx answer to each write, so the caller can tell what the run itself stored (`lastWrite`).
 *
 * Why this is safe: only reads are served from memory, and only reads made before the run's first API
 * write, so every answer is one the API gave during this run, at most a few milliseconds before the
 * caller would have had it (the same as if both reads had been sent back to back). What guards the
 * run's writes is not these reads but the run's fence, checked with fresh reads before every write
 * (run-fence.ts, the worker's `ExecutionFence`): those never go through this client. Errors (404
 * included) are never remembered, so a read that failed is always sent again.
 * The same body object is handed to every reader: readers treat API answers as read-only.
 */
export class RunReadCache implements HyperfleetApiClient {
  private readonly reads = new Map<string, ApiResponse>();
  private readonly writes = new Map<string, ApiResponse>();
  /** Reads answered from memory, for traces and tests. */
  hits = 0;

  constructor(private readonly inner: HyperfleetApiClient) {}

  resolveUrl(url: string): string {
    return this.inner.resolveUrl(url);
  }

  async request(request: ApiRequest): Promise<ApiResponse> {
    if (request.method !== 'GET') {
      this.reads.clear();
      const response = await this.inner.request(request).finally(() => this.reads.clear());
      this.writes.set(`${request.method} ${response.url}`, response);
      return response;
    }
    const url = this.inner.resolveUrl(request.url);
    const remembered = this.reads.get(url);
    if (remembered) {
      this.hits += 1;
      return remembered;
    }
    const response = await this.inner.request(request);
    this.reads.set(url, response);
    return response;
  }

  /** The last 2xx answer of this run to `method url` (absolute or relative URL), if the run sent one. */
  lastWrite(method: ApiRequest['method'], url: string): ApiResponse | undefined {
    return this.writes.get(`${method} ${this.inner.resolveUrl(url)}`);
  }
}
