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
