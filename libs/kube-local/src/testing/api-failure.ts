/** Test support: unwraps the HTTP failure of a @kubernetes/client-node call. */
import { ApiException } from '@kubernetes/client-node';
import type { KubeStatus } from '../status-errors.js';

export interface ApiFailure {
  readonly code: number;
  readonly status: KubeStatus;
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * Awaits a call that must fail with an HTTP error and returns its code and parsed `Status` body.
 * @throws Error when the call succeeds or fails without an HTTP answer.
 */
export async function apiFailure(call: Promise<unknown>): Promise<ApiFailure> {
  try {
    await call;
  } catch (error) {
    if (error instanceof ApiException) {
      const body = error.body as unknown;
      const status = (typeof body === 'string' ? JSON.parse(body) : body) as KubeStatus;
      return { code: error.code, status, headers: error.headers };
    }
    throw error;
  }
  throw new Error('expected the call to fail with an HTTP error, but it succeeded');
}
