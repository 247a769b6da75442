/**
 * The UI's only door to the engine: every call carries `Authorization: Bearer <token>` (the token from the
 * login page, kept in sessionStorage for this tab) and, when given, the identity header used while the
 * engine runs without authentication. Errors come back as the API's problem details (RFC 9457).
 */

export interface Problem {
  readonly status: number;
  readonly title: string;
  readonly detail: string;
  readonly code?: string;
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

/** Fetches JSON; throws ApiError with the problem's title and detail on any non-2xx answer. */
export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method,
    headers: { ...authHeaders(), accept: 'application/json', ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  const json: unknown = text ? safeJson(text) : undefined;
  if (!response.ok) {
    const p = (json ?? {}) as Partial<Problem>;
    throw new ApiError({
      status: response.status,
      title: p.title ?? `HTTP ${response.status}`,
      detail: p.detail ?? (text || response.statusText),
      ...(p.code ? { code: p.code } : {}),
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

// ---- shapes the UI reads (the API's field names, unchanged) ----

export interface Condition {
  readonly type: string;
  readonly status: string;
  readonly reason?: string;
  readonly message?: string;
  readonly last_transition_time?: string;
  readonly last_updated_time?: string;
  readonly observed_generation?: number;
}

export interface Resource {
  readonly id: string;
  readonly kind: string;
  readonly name: string;
  readonly href: string;
  readonly generation: number;
  readonly spec: Record<string, unknown>;
  readonly labels?: Record<string, string>;
  readonly created_time: string;
  readonly created_by: string;
  readonly deleted_time?: string;
  readonly deleted_by?: string;
  readonly deletion_policy?: string;
  readonly owner_references?: { id: string; kind: string; href: string };
  readonly references?: Record<string, { id: string; kind: string }[]>;
  readonly status: { conditions: Condition[] };
}

export interface AdapterStatus {
  readonly adapter: string;
  readonly observed_generation: number;
  readonly conditions: Condition[];
  readonly last_report_time: string;
}

export interface Blocker {
  readonly type: string;
  readonly message: string;
  readonly [field: string]: unknown;
}

export interface Finalizing {
  readonly id: string;
  readonly kind: string;
  readonly name: string;
  readonly href: string;
  readonly deleted_time: string;
  readonly deleted_by: string;
  readonly finalizing_seconds: number;
  readonly deletion_timeout_seconds?: number;
  readonly blockers: Blocker[];
}

export interface HistoryEntry {
  readonly position: number;
  readonly revision: number;
  readonly type: string;
  readonly recorded_time: string;
  readonly caller?: string;
  readonly data: Record<string, unknown>;
}

export interface AuditEntry {
  readonly position: number;
  readonly type: string;
  readonly id: string;
  readonly kind: string;
  readonly name?: string;
  readonly caller: string;
  readonly reason: string;
  readonly time: string;
  readonly subresources: { id: string; kind: string; name: string }[];
  readonly adapter_statuses: Record<string, AdapterStatus[]>;
}

export interface Kind {
  readonly kind: string;
  readonly plural: string;
  readonly parent_kind?: string;
}

export interface Permissions {
  readonly create: boolean;
  readonly delete: boolean;
  readonly pause: boolean;
  readonly unpause: boolean;
  readonly force_delete: boolean;
  readonly force_orphan: boolean;
}

export interface WhoAmI {
  readonly identity?: string;
  readonly issuer?: string;
  readonly roles?: string[];
  readonly tenant?: string;
  readonly can: Permissions;
  /** Set by the UI when the engine has no whoami endpoint (authentication not configured). */
  readonly unauthenticated?: boolean;
}

const EVERYTHING: Permissions = { create: true, delete: true, pause: true, unpause: true, force_delete: true, force_orphan: true };

/** `GET /api/decom/v1/whoami`; a 404 means the engine runs without authentication: every action is offered. */
export async function whoami(): Promise<WhoAmI> {
  try {
    return await api<WhoAmI>('GET', `${DECOM}/whoami`);
  } catch (error) {
    if (error instanceof ApiError && error.problem.status === 404) return { can: EVERYTHING, unauthenticated: true };
    throw error;
  }
}
