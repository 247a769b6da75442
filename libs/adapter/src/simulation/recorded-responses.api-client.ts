import { apiFailure } from '../api-client/api-errors.js';
import { resolveApiUrl } from '../api-client/api-url.js';
import type { ApiRequest, ApiResponse, HyperfleetApiClient } from '../api-client/hyperfleet-api.types.js';
import { type ApiExchange, parseMaybeJson } from './api-exchange.js';

/**
 * HyperFleet's dry-run API responses file (`--dry-run-api-responses`):
 * `{responses: [{match: {method ("*" = any), urlPattern (regexp, unanchored)}, responses: [{statusCode, headers?, body?}]}]}`.
 * Each endpoint answers its responses in order and then repeats the last one.
 */
export interface RecordedResponsesFile {
  readonly responses: readonly {
    readonly match: { readonly method: string; readonly urlPattern: string };
    readonly responses: readonly { readonly statusCode?: number; readonly headers?: Record<string, string>; readonly body?: unknown }[];
  }[];
}

/** The responses file is malformed. */
export class RecordedResponsesError extends Error {
  override readonly name = 'RecordedResponsesError';
}

/**
 * A `HyperfleetApiClient` answering from a recorded-responses file, never from the network, as
 * HyperFleet's dry run does: first endpoint whose method and pattern match the resolved URL;
 * no match → 200 `{}`. Non-2xx answers raise the same errors as the real client (404 →
 * ResourceNotFound, 404 `HYPERFLEET-NTF-000` → RouteNotFound, ...). Every request is kept in `exchanges`.
 * @throws RecordedResponsesError from the constructor for an invalid file or pattern.
 */
export class RecordedResponsesApiClient implements HyperfleetApiClient {
  readonly exchanges: ApiExchange[] = [];
  private readonly endpoints: {
    method: string;
    pattern: RegExp;
    answers: RecordedResponsesFile['responses'][number]['responses'];
    served: number;
  }[];

  constructor(
    file: unknown,
    private readonly options: { baseUrl?: string; version?: string } = {},
  ) {
    const responses = (file as Partial<RecordedResponsesFile> | null)?.responses;
    if (!Array.isArray(responses)) throw new RecordedResponsesError('expected {"responses": [...]}');
    this.endpoints = responses.map((endpoint, i) => {
      const pattern = endpoint?.match?.urlPattern;
      if (typeof pattern !== 'string' || pattern === '') throw new RecordedResponsesError(`responses[${i}].match.urlPattern is required`);
      if (!Array.isArray(endpoint.responses) || endpoint.responses.length === 0)
        throw new RecordedResponsesError(`responses[${i}] has no responses`);
      let regexp: RegExp;
      try {
        regexp = new RegExp(pattern);
      } catch (error) {
        throw new RecordedResponsesError(`responses[${i}].match.urlPattern: ${(error as Error).message}`);
      }
      return { method: (endpoint.match.method ?? '*').toUpperCase(), pattern: regexp, answers: endpoint.responses, served: 0 };
    });
  }

  /**
   * As HyperFleet's `buildHyperfleetAPICallURL`: with the deployment's `base_url`, the URL the real client
   * would call; without one, the config's URL unchanged (a relative `/clusters/x` stays relative, so a
   * recorded pattern must match what HyperFleet's dry run would see).
   */
  resolveUrl(url: string): string {
    if (!this.options.baseUrl) return url.trim();
    return resolveApiUrl(this.options.baseUrl, this.options.version ?? 'v1', url);
  }

  async request(request: ApiRequest): Promise<ApiResponse> {
    const url = this.resolveUrl(request.url);
    const endpoint = this.endpoints.find((e) => (e.method === '*' || e.method === request.method) && e.pattern.test(url));
    let status = 200;
    let body: unknown = {};
    if (endpoint) {
      const answer = endpoint.answers[Math.min(endpoint.served, endpoint.answers.length - 1)];
      endpoint.served += 1;
      status = answer?.statusCode || 200;
      body = answer?.body ?? {};
    }
    this.exchanges.push({
      method: request.method,
      url,
      ...(request.body !== undefined && { requestBody: parseMaybeJson(request.body) }),
      status,
      responseBody: body,
      answeredBy: endpoint ? 'recorded' : 'default',
    });
    if (status < 200 || status > 299) throw apiFailure(request.method, url, status, body, 1);
    return { method: request.method, url, status, body, attempts: 1 };
  }
}
