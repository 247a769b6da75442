/**
 * The access policy (access-policy.ts) asked about a command's caller: every write path (resource actions,
 * break-glass decisions) refuses the same way, with the same `Principal` taken from its `CommandContext`.
 */
import { Inject, Injectable } from '@nestjs/common';
import type { CommandContext } from '@decom/application';
import { Problems } from '../problem-details/problem.js';
import { ACCESS_POLICY } from '../tokens.js';
import type { AccessDecision, AccessPolicy, Principal, ResourceAction } from './access-policy.js';

@Injectable()
export class CallerAuthorization {
  constructor(@Inject(ACCESS_POLICY) private readonly access: AccessPolicy) {}

  /** @throws HttpProblem 403 `HYPERFLEET-AUZ-001` when the access policy refuses `action` to the caller. */
  authorize(context: CommandContext, action: ResourceAction): void {
    allowedOrForbidden(this.access.can(principalOfContext(context), action));
  }

  /**
   * A status report for `adapter`: only from an identity bound to it when bindings apply.
   * @throws HttpProblem 403 `HYPERFLEET-AUZ-001` otherwise.
   */
  authorizeReport(context: CommandContext, adapter: string): void {
    allowedOrForbidden(this.access.canReport(principalOfContext(context), adapter));
  }
}

function allowedOrForbidden(decision: AccessDecision): void {
  if (!decision.allowed) throw Problems.forbidden(decision.reason);
}

/** The verified caller a command runs for, as the request authenticated it (caller.ts `commandContextOf`). */
function principalOfContext(context: CommandContext): Principal {
  return {
    identity: context.caller,
    issuer: context.audit?.issuer ?? null,
    subject: context.audit?.subject ?? null,
    tenant: context.audit?.tenant ?? null,
  };
}
