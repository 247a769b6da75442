/**
 * The UI's only door to the engine: every call carries `Authorization: Bearer <token>` (the token from the
 * login page, kept in sessionStorage for this tab) and, when given, the identity header used while the
 * engine runs without authentication. Errors come back as the API's problem details (RFC 9457).
 */
import type { DeadLetterAvailability } from './outage';
import type { components } from './api-types.generated';

export type { DeadLetterAvailability };

export interface Problem {
  readonly status: number;
  readonly title: string;
  readonly detail: string;
  readonly code?: string;
  /** From a 429's or 503's `Retry-After` header, in seconds. */
  readonly retryAfterSeconds?: number;
  /** A 429 of the deletion budget (limits.deletions): the bound the DELETE would pass. */
  readonly budget?: DeletionBudgetUse;
}

/** The deletion budget a refused DELETE names (429 problem details `budget`). */
export interface DeletionBudgetUse {
  readonly kind: string;
  readonly name: 'max_in_flight' | 'max_per_hour';
  readonly limit: number;
  readonly used: number;
  readonly tenant?: string;
}

export class ApiError extends Error {
  constructor(readonly problem: Problem) {
    super(`${problem.title}: ${problem.detail}`);
  }
}

const TOKEN_KEY = 'decom.token';
const IDENTITY_KEY = 'decom.identity';

export const session = {
  token: (): string => sessionStorage.getItem(TOKEN_KEY) ?? '',
  identity: (): string => sessionStorage.getItem(IDENTITY_KEY) ?? '',
  save(token: string, identity: string): void {
    sessionStorage.setItem(TOKEN_KEY, token);
    if (identity) sessionStorage.setItem(IDENTITY_KEY, identity);
    else sessionStorage.removeItem(IDENTITY_KEY);
  },
  clear(): void {
    sessionStorage.removeItem(TOKEN_KEY);
    sessionStorage.removeItem(IDENTITY_KEY);
  },
};

export function authHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  const token = session.token();
  if (token) headers['authorization'] = `Bearer ${token}`;
  const identity = session.identity();
  if (identity) headers['x-hyperfleet-identity'] = identity;
  return headers;
}

/**
 * The engine did not answer: the connection failed or no answer came within the request's timeout. Unlike
 * an `ApiError` nothing is known about the engine's state, so a page keeps what it showed before.
 */
export class EngineUnreachable extends Error {
  constructor(
    message: string,
    /** Whether the request ran out of time (the engine may still carry out a command it received). */
    readonly timedOut: boolean,
  ) {
    super(message);
  }
}

/** How long a read waits for the engine's answer, in milliseconds: long enough for a loaded engine, short enough that an outage shows. */
export const READ_TIMEOUT_MS = 5_000;
/** How long a command (POST, PUT, DELETE) waits: it may do more work before answering. */
export const WRITE_TIMEOUT_MS = 15_000;

export interface RequestOptions {
  /** Default `READ_TIMEOUT_MS` for GET, `WRITE_TIMEOUT_MS` otherwise. */
  readonly timeoutMs?: number;
  /** Cancels the request (e.g. a newer read of the same list); the call then rejects with the signal's reason. */
  readonly signal?: AbortSignal;
}

/**
 * Fetches JSON. Every call is bounded by a timeout (an AbortController), so an engine that accepts the
 * connection and never answers fails like one that refuses it.
 * @throws ApiError with the problem's title and detail on any non-2xx answer (503 keeps its `retryAfterSeconds`).
 * @throws EngineUnreachable on a network failure or when the timeout passes first.
 */
export async function api<T>(method: string, path: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
  const timeoutMs = options.timeoutMs ?? (method === 'GET' ? READ_TIMEOUT_MS : WRITE_TIMEOUT_MS);
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const cancel = () => controller.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', cancel, { once: true });
  let response: Response;
  let text: string;
  try {
    if (options.signal?.aborted) throw options.signal.reason;
    response = await fetch(path, {
      method,
      headers: { ...authHeaders(), accept: 'application/json', ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      signal: controller.signal,
    });
    text = await response.text();
  } catch (error) {
    if (timedOut) {
      const after = `no answer within ${timeoutMs / 1000} s`;
      throw new EngineUnreachable(method === 'GET' ? after : `${after}; the engine may still carry out the ${method}, reload to see`, true);
    }
    if (options.signal?.aborted) throw error;
    throw new EngineUnreachable(`the engine could not be reached (${(error as Error).message ?? String(error)})`, false);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', cancel);
  }
  const json: unknown = text ? safeJson(text) : undefined;
  if (!response.ok) {
    const p = (json ?? {}) as Partial<Problem>;
    const retryAfter = Number(response.headers.get('retry-after'));
    throw new ApiError({
      status: response.status,
      title: p.title ?? `HTTP ${response.status}`,
      detail: p.detail ?? (text || response.statusText),
      ...(p.code ? { code: p.code } : {}),
      ...(response.status === 429 && p.budget ? { budget: p.budget } : {}),
      ...(response.headers.has('retry-after') && Number.isFinite(retryAfter) ? { retryAfterSeconds: retryAfter } : {}),
    });
  }
  return json as T;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export const HF = '/api/hyperfleet/v1';
export const DECOM = '/api/decom/v1';

// ---- shapes the UI reads: generated from the API's OpenAPI document (npm run generate:api-types) ----

type Schemas = components['schemas'];

export type Condition = Schemas['Condition'];
export type Resource = Schemas['Resource'];
export type AdapterStatus = Schemas['AdapterStatus'];
/** Why a deletion is pending; which optional fields are present depends on `type`. */
export type Blocker = Schemas['BlockerAnswer'];
export type Finalizing = Schemas['FinalizingAnswer'];
/**
 * `GET /api/decom/v1/finalizing`. `dead_letters` is read as the UI's union (outage.ts), which the document's
 * `{status, reason?, since?}` admits; absent from an engine older than the field: read as available.
 */
export type FinalizingPage = Omit<Schemas['FinalizingList'], 'dead_letters'> & { readonly dead_letters?: DeadLetterAvailability };
export type HistoryEntry = Schemas['HistoryEntryAnswer'];
export type AuditEntry = Schemas['AuditEntryAnswer'];
export type Kind = Schemas['KindAnswer'];
/** One resource a DELETE would mark (`DELETE …?dryRun=All`, docs/policies.md "Deletion preview"). */
export type PreviewedDeletion = Schemas['PreviewedDeletionAnswer'];
/** The answer of `DELETE …?dryRun=All`: nothing was recorded; `resources` in hard-delete order. */
export type DeletionPreview = Schemas['DeletionPreview'];
/** What the caller may do (`GET /whoami`'s `can`). */
export type Permissions = Schemas['Whoami']['can'];

/** `GET /api/decom/v1/whoami`, or what the UI assumes when the engine has none. */
export type WhoAmI = Partial<Omit<Schemas['Whoami'], 'can'>> & {
  readonly can: Permissions;
  /** Set by the UI when the engine has no whoami endpoint (authentication not configured). */
  readonly unauthenticated?: boolean;
};

const EVERYTHING: Permissions = {
  create: true,
  delete: true,
  pause: true,
  unpause: true,
  force_delete: true,
  force_orphan: true,
  abandon_adapter: true,
  clear_deletion_protection: true,
  override_deletion_budget: true,
};

/** `GET /api/decom/v1/whoami`; a 404 means the engine runs without authentication: every action is offered. */
export async function whoami(): Promise<WhoAmI> {
  try {
    return await api<WhoAmI>('GET', `${DECOM}/whoami`);
  } catch (error) {
    if (error instanceof ApiError && error.problem.status === 404) return { can: EVERYTHING, unauthenticated: true };
    throw error;
  }
}

/** The two-person rule's approval queue (docs/policies.md "Two-person rule for break-glass actions"). */
export const BREAK_GLASS = `${DECOM}/break-glass-requests`;

/** A break-glass request (`GET /api/decom/v1/break-glass-requests`); also the 202 answer of an action under the rule. */
export type BreakGlassRequest = Schemas['BreakGlassRequest'];

/** Whether an action's answer is a recorded break-glass request (202 under the two-person rule), not the resource. */
export function isBreakGlassRequest(answer: unknown): answer is BreakGlassRequest {
  return typeof answer === 'object' && answer !== null && 'request_id' in answer && 'expires_at' in answer;
}
