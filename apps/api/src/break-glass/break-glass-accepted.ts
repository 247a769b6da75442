/**
 * The answer of a break-glass action under the two-person rule: nothing ran yet, a request was recorded.
 * `BreakGlassAcceptedInterceptor` turns it into `202 Accepted` with `Location` naming the request.
 */
import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { map, type Observable } from 'rxjs';
import type { BreakGlassRequestJson } from '@decom/projections';
import { HttpProblem } from '../problem-details/problem.js';

/** Where a request is read: `GET` it, `POST` `/approve` or `/reject` below it. */
export const BREAK_GLASS_PATH = '/api/decom/v1/break-glass-requests';

/** A request as the API answers it: the read model's row without its stream, with its `href`. */
export type BreakGlassRequestAnswer = Omit<BreakGlassRequestJson, 'stream'> & { readonly href: string };

export function presentBreakGlassRequest({ stream: _stream, ...request }: BreakGlassRequestJson): BreakGlassRequestAnswer {
  return { ...request, href: `${BREAK_GLASS_PATH}/${request.request_id}` };
}

export class BreakGlassAccepted {
  constructor(readonly request: BreakGlassRequestAnswer) {}
}

/** A handler's `BreakGlassAccepted` → 202, `Location: <href>`, the request as the body; anything else unchanged. */
@Injectable()
export class BreakGlassAcceptedInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      map((result: unknown) => {
        if (!(result instanceof BreakGlassAccepted)) return result;
        void context.switchToHttp().getResponse<FastifyReply>().status(202).header('location', result.request.href);
        return result.request;
      }),
    );
  }
}

/**
 * GraphQL's answer to a break-glass mutation under the two-person rule: its result type (a resource) cannot
 * say "requested", so a recorded request is a problem with status 202 naming it (`break_glass_request`);
 * `approveBreakGlass` / `rejectBreakGlass` decide it. @returns `result` when it is not a request.
 */
export function awaitingApproval<T>(result: T | BreakGlassAccepted): T {
  if (!(result instanceof BreakGlassAccepted)) return result;
  const { request } = result;
  throw new HttpProblem(
    202,
    'HYPERFLEET-CNF-003',
    'Approval Required',
    'approval-required',
    `recorded break-glass request '${request.request_id}': a different administrator must approve it before ${request.expires_at}`,
    undefined,
    {
      break_glass_request: request,
    },
  );
}
