/**
 * The two-person rule's refusals (break-glass.ts). They carry data, not HTTP: apps/api maps each once
 * (problem-details/error-map.ts).
 */
import { DomainError } from './errors.js';
import type { BreakGlassStatus } from './break-glass-request.js';

/** No break-glass request with this id (404). */
export class BreakGlassRequestNotFound extends DomainError {
  override readonly name = 'BreakGlassRequestNotFound';
  readonly code = 'BreakGlassRequestNotFound';
  constructor(readonly request_id: string) {
    super(`break-glass request '${request_id}' not found`);
  }
}

/** The request was already approved, rejected or voided, or has expired (409). */
export class BreakGlassNotPending extends DomainError {
  override readonly name = 'BreakGlassNotPending';
  readonly code = 'BreakGlassNotPending';
  constructor(
    readonly request_id: string,
    readonly status: BreakGlassStatus,
  ) {
    super(
      status === 'Expired'
        ? `break-glass request '${request_id}' has expired: request the action again`
        : `break-glass request '${request_id}' is ${status}, not Pending`,
    );
  }
}

/** The two-person rule: the administrator who asked cannot approve their own request (403). */
export class SelfApproval extends DomainError {
  override readonly name = 'SelfApproval';
  readonly code = 'SelfApproval';
  constructor(
    readonly request_id: string,
    readonly caller: string,
  ) {
    super(`break-glass request '${request_id}' was made by '${caller}': a different administrator must approve it`);
  }
}
