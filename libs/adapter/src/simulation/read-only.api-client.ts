import type { ApiRequest, ApiResponse, HyperfleetApiClient } from '../api-client/hyperfleet-api.types.js';
import { ApiCallError } from '../api-client/api-errors.js';
import { type ApiExchange, parseMaybeJson } from './api-exchange.js';

/**
 * Wraps a real API client so a simulation can read but never write: GETs are sent, anything
 * else (status reports, post actions) is withheld and answered `201 {}` as if accepted. Every
 * request is kept in `exchanges`.
 */
export class ReadOnlyApiClient implements HyperfleetApiClient {
  readonly exchanges: ApiExchange[] = [];

  constructor(private readonly inner: HyperfleetApiClient) {}

  resolveUrl(url: string): string {
    return this.inner.resolveUrl(url);
  }

  async request(request: ApiRequest): Promise<ApiResponse> {
    const url = this.inner.resolveUrl(request.url);
    const requestBody = request.body !== undefined ? { requestBody: parseMaybeJson(request.body) } : {};
    if (request.method !== 'GET') {
      this.exchanges.push({ method: request.method, url, ...requestBody, status: 201, responseBody: {}, answeredBy: 'withheld' });
      return { method: request.method, url, status: 201, body: {}, attempts: 1 };
    }
    try {
      const response = await this.inner.request(request);
      this.exchanges.push({ method: request.method, url, status: response.status, responseBody: response.body, answeredBy: 'live' });
      return response;
    } catch (error) {
      if (error instanceof ApiCallError) {
        this.exchanges.push({ method: request.method, url, status: error.status ?? 0, responseBody: error.body, answeredBy: 'live' });
      }
      throw error;
    }
  }
}
