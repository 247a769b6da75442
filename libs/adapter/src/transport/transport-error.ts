/**
 * A Kubernetes call failed for a reason other than "not found" (RBAC, conflict, server error,
 * unreachable). `reason` is the Kubernetes `Status.reason` (`Forbidden`, `AlreadyExists`,
 * `InternalError`...) or `ConnectionFailure` / `ClientError` when no Status came back.
 */
export class TransportError extends Error {
  override readonly name = 'TransportError';

  constructor(
    readonly reason: string,
    message: string,
    readonly statusCode?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Reasons meaning "no answer from the server" (as opposed to an answer that refuses). */
const CONNECTION_REASONS = new Set(['ConnectionFailure', 'Timeout']);

/** Whether `error` says the cluster (Kubernetes or Maestro) could not be reached at all. */
export function isConnectionFailure(error: unknown): error is TransportError {
  return error instanceof TransportError && CONNECTION_REASONS.has(error.reason);
}
