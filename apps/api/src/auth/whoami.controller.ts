/**
 * `GET /api/decom/v1/whoami`: the verified caller and what it may do, for the web UI and for operators
 * checking a token. Shape: `{ identity, issuer: string|null, roles: string[], tenant: object|null,
 * can: { create, delete, pause, unpause, force_delete, force_orphan } }` (booleans). With authentication
 * off every action is allowed and the identity is the header's value or `system@hyperfleet.local`.
 */
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiProblems } from '../openapi/problem-responses.js';
import { WhoamiAnswer } from './whoami.answer.js';
import { Controller, Get, Inject, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ACCESS_POLICY } from '../tokens.js';
import { ACTIONS, type AccessPolicy, type Role } from './access-policy.js';
import { principalOf } from './request-authentication.js';

export interface WhoamiJson {
  readonly identity: string;
  readonly issuer: string | null;
  readonly roles: readonly Role[];
  readonly tenant: Readonly<Record<string, string>> | null;
  readonly can: Readonly<Record<(typeof ACTIONS)[number], boolean>>;
}

@Controller('api/decom/v1/whoami')
@ApiTags('Decom')
export class WhoamiController {
  constructor(@Inject(ACCESS_POLICY) private readonly access: AccessPolicy) {}

  @ApiOperation({ operationId: 'getWhoami', summary: 'The caller as the API sees it (identity, roles, what it may do)' })
  @ApiOkResponse({ type: WhoamiAnswer, description: 'caller' })
  @ApiProblems()
  @Get()
  whoami(@Req() req: FastifyRequest): WhoamiJson {
    const principal = principalOf(req);
    const can = Object.fromEntries(ACTIONS.map((action) => [action, this.access.can(principal, action).allowed])) as WhoamiJson['can'];
    return { identity: principal.identity, issuer: principal.issuer, roles: this.access.rolesOf(principal), tenant: principal.tenant, can };
  }
}
