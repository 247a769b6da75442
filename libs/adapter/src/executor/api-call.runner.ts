import { ApiCallError } from '../api-client/api-errors.js';
import type { ApiResponse, HyperfleetApiClient } from '../api-client/hyperfleet-api.types.js';
import type { ApiCallSpec } from '../config/task-config.types.js';
import type { ExecutionContext } from './execution-context.js';

/** A rendered request, kept so callers can report what they sent. */
export interface RenderedApiCall {
  readonly method: ApiCallSpec['method'];
  readonly url: string;
  readonly body?: string;
  readonly headers: Record<string, string>;
}

/**
 * Renders `url`, `body` and headers.
 * @throws TemplateExecError when a template fails (e.g. an undefined variable).
 */
export function renderApiCall(ctx: ExecutionContext, spec: ApiCallSpec): RenderedApiCall {
  const headers: Record<string, string> = {};
  for (const header of spec.headers) headers[header.name] = ctx.render(header.value);
  return {
    method: spec.method,
    url: ctx.render(spec.url),
    headers,
    ...(spec.body !== undefined && { body: ctx.render(spec.body) }),
  };
}

/**
 * Sends a rendered call and records it in the trace (`apiCalls`), success or failure.
 * @throws the client's ApiCallError subclasses unchanged.
 */
export async function sendApiCall(
  ctx: ExecutionContext,
  api: HyperfleetApiClient,
  spec: ApiCallSpec,
  call: RenderedApiCall,
): Promise<ApiResponse> {
  try {
    const response = await api.request({
      method: call.method,
      url: call.url,
      headers: call.headers,
      ...(call.body !== undefined && { body: call.body }),
      ...(spec.timeoutMs !== undefined && { timeoutMs: spec.timeoutMs }),
      ...(spec.retryAttempts !== undefined && { retryAttempts: spec.retryAttempts }),
      ...(spec.retryBackoff !== undefined && { retryBackoff: spec.retryBackoff }),
    });
    ctx.recorder.apiCall({ method: call.method, url: response.url, status: response.status, attempts: response.attempts });
    return response;
  } catch (error) {
    if (error instanceof ApiCallError) {
      ctx.recorder.apiCall({
        method: call.method,
        url: error.url,
        ...(error.status !== undefined && { status: error.status }),
        attempts: error.attempts,
        error: error.message,
      });
    } else {
      ctx.recorder.apiCall({ method: call.method, url: call.url, error: error instanceof Error ? error.message : String(error) });
    }
    throw error;
  }
}
