/**
 * The worker's error taxonomy:
 * - transient: no answer (network), 5xx, 408, 429, conflicts (409, Kubernetes Conflict/AlreadyExists),
 *   404 (a dependency not there yet, e.g. a namespace another adapter creates) → retried with
 *   exponential backoff and jitter, a bounded number of times, then dead-lettered;
 * - terminal: a bad config (CEL, templates, payloads, a missing required param, HyperFleet's NTF-000
 *   "no route"), or a 4xx other than 404/409/429 (401, 403, 400, 422...) → reported as status
 *   conditions, never retried.
 * When one execution shows both, transient wins: a retry may get past the outage and the bounded attempts
 * still end in the dead-letter set.
 */
import type { ExecutionResult } from '@decom/adapter';

export interface AdapterFailure {
  readonly kind: 'transient' | 'terminal';
  /** PascalCase, for the Health condition (`ParameterExtractionFailed`, `KubernetesUnavailable`...). */
  readonly reason: string;
  readonly message: string;
  /**
   * `kubernetes` when the cause is that the Kubernetes API server gave no answer at all (connection refused,
   * reset, timed out): the persistent backoff records it, and the recovery of the API server re-runs the
   * work at once (backoff-recovery.ts). Calls through Maestro do not count.
   */
  readonly unreachable?: 'kubernetes';
}

/** Kubernetes call outcomes (and `TransportError` reasons) meaning no answer came back. */
const NO_ANSWER_KUBE_REASONS = new Set(['ConnectionFailure', 'Timeout']);

/** Kubernetes `Status.reason`s (and our transport's) worth a retry. */
const TRANSIENT_KUBE_REASONS = new Set([
  'ConnectionFailure',
  'InternalError',
  'ServiceUnavailable',
  'ServerTimeout',
  'Timeout',
  'TooManyRequests',
  'Conflict',
  'AlreadyExists',
  'NotFound',
]);

/** HTTP statuses worth a retry: not found (yet), timeouts, conflicts, throttling, server errors. */
export function isTransientStatus(status: number): boolean {
  return status === 404 || status === 408 || status === 409 || status === 429 || status >= 500;
}

/** HyperFleet's 404 `HYPERFLEET-NTF-000`: no such endpoint, a wrong `url` in the config (HYPERFLEET-1247). */
const NO_ROUTE = /HYPERFLEET-NTF-000|no such endpoint/;

/** Classifies a failed execution; undefined when it succeeded. */
export function classifyExecution(result: ExecutionResult): AdapterFailure | undefined {
  if (result.status === 'success') return undefined;
  const message = result.adapter.errorMessage || 'adapter execution failed';
  for (const call of result.apiCalls) {
    // An ApiCallError without a status is a transport failure (it carries `attempts`); a call that
    // failed before sending (a template error) has neither and is a config problem.
    const noAnswer = call.status === undefined && call.error !== undefined && call.attempts !== undefined;
    const noRoute = call.status === 404 && NO_ROUTE.test(call.error ?? '');
    if (noAnswer || (call.status !== undefined && call.error !== undefined && !noRoute && isTransientStatus(call.status))) {
      return { kind: 'transient', reason: 'HyperfleetApiUnavailable', message };
    }
  }
  const transient = result.kubeCalls.filter(
    (call) => TRANSIENT_KUBE_REASONS.has(call.outcome) || /^HTTP(5\d\d|404|408|409|429)$/.test(call.outcome),
  );
  if (transient.length > 0) {
    const unreachable = transient.some((call) => call.via === undefined && NO_ANSWER_KUBE_REASONS.has(call.outcome));
    return { kind: 'transient', reason: 'KubernetesUnavailable', message, ...(unreachable && { unreachable: 'kubernetes' as const }) };
  }
  return { kind: 'terminal', reason: result.adapter.errorReason || 'AdapterFailed', message };
}

/** Classifies an error thrown around an execution (the processor's own API reads, an executor bug). */
export function classifyError(error: unknown): AdapterFailure {
  const e = error as { name?: string; status?: number; reason?: string; statusCode?: number; message?: string };
  const message = e?.message ?? String(error);
  switch (e?.name) {
    case 'TerminalError':
      return { kind: 'terminal', reason: 'AdapterFailed', message };
    case 'ApiRouteNotFoundError':
      return { kind: 'terminal', reason: 'HyperfleetApiRouteNotFound', message };
    case 'ApiResourceNotFoundError':
      return { kind: 'transient', reason: 'ResourceNotFound', message };
    case 'ApiTransportError':
      return { kind: 'transient', reason: 'HyperfleetApiUnavailable', message };
    case 'ApiHttpError':
      return e.status !== undefined && !isTransientStatus(e.status)
        ? { kind: 'terminal', reason: 'HyperfleetApiRejected', message }
        : { kind: 'transient', reason: 'HyperfleetApiUnavailable', message };
    case 'TransportError':
      return TRANSIENT_KUBE_REASONS.has(e.reason ?? '') || (e.statusCode !== undefined && isTransientStatus(e.statusCode))
        ? {
            kind: 'transient',
            reason: 'KubernetesUnavailable',
            message,
            ...(NO_ANSWER_KUBE_REASONS.has(e.reason ?? '') && { unreachable: 'kubernetes' as const }),
          }
        : { kind: 'terminal', reason: 'KubernetesRejected', message };
    default:
      // Unknown errors are retried (bounded): safer than dropping work for a bug that may be a blip.
      return { kind: 'transient', reason: 'UnexpectedError', message };
  }
}
