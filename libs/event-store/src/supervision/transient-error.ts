/**
 * Which errors are "the dependency is away for a moment" rather than a bug: the supervisor restarts a loop
 * after them, and the API answers 503 `HYPERFLEET-SVC-001` instead of 500.
 * - PostgreSQL SQLSTATE classes 08 (connection exception), 57P01..57P03 (admin/crash shutdown, cannot
 *   connect now), 53300 (too many connections), 40001 (serialization failure), 40P01 (deadlock detected),
 *   55P03 (lock not available), 57014 (statement timeout / query cancelled).
 * - Socket errors (ECONNREFUSED, ECONNRESET, EPIPE, ETIMEDOUT, EHOSTUNREACH, ENETUNREACH, EAI_AGAIN).
 * - `pg` and `ioredis` messages for a connection that ended or could not be made in time.
 * - Errors that declare themselves transient (`isTransient: true`, e.g. `ProjectionWaitTimeout`'s callers).
 * A wrapped error (`cause`, or an `AggregateError`'s `errors`) is transient when one of its causes is.
 */
const TRANSIENT_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '40001', '40P01', '55P03', '57014']);
const TRANSIENT_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ECONNABORTED',
]);
const TRANSIENT_MESSAGES = [
  /connection terminated/i,
  /client has encountered a connection error/i,
  /timeout exceeded when trying to connect/i,
  /connection is closed/i,
  /cannot use a pool after calling end/i,
  /reached the max retries per request/i,
  /terminating connection/i,
  /the database system is (starting up|shutting down|in recovery mode)/i,
  /query read timeout/i,
  /socket closed unexpectedly/i,
];

export function isTransientError(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 4) return false;
  const candidate = error as { code?: unknown; message?: unknown; isTransient?: unknown; cause?: unknown; errors?: unknown };
  if (candidate.isTransient === true) return true;
  const code = typeof candidate.code === 'string' ? candidate.code : undefined;
  if (code && (TRANSIENT_SQLSTATES.has(code) || code.startsWith('08') || TRANSIENT_ERRNOS.has(code))) return true;
  const message = typeof candidate.message === 'string' ? candidate.message : '';
  if (TRANSIENT_MESSAGES.some((pattern) => pattern.test(message))) return true;
  if (Array.isArray(candidate.errors) && candidate.errors.some((inner) => isTransientError(inner, depth + 1))) return true;
  return isTransientError(candidate.cause, depth + 1);
}

/** A one-line description for logs: the code (when any) and the first line of the message. */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  const message = error.message.split('\n')[0] || error.name;
  return typeof code === 'string' && !message.includes(code) ? `${message} (${code})` : message;
}
