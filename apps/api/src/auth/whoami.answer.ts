import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { ACTIONS, type Role } from './access-policy.js';

const ROLES: readonly Role[] = ['admin', 'operator', 'adapter', 'reader'];

/** `GET /api/decom/v1/whoami` (`WhoamiJson`): the caller as the API sees it. */
@ApiSchema({ name: 'Whoami' })
export class WhoamiAnswer {
  @ApiProperty() identity!: string;
  @ApiProperty({ type: 'string', nullable: true, description: "the token's issuer; null without a token" }) issuer!: string | null;
  @ApiProperty({ type: 'array', items: { type: 'string', enum: [...ROLES] } }) roles!: string[];
  @ApiProperty({
    type: 'object',
    nullable: true,
    additionalProperties: { type: 'string' },
    description: "the caller's tenancy; null when unscoped",
  })
  tenant!: Record<string, string> | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'each action and whether the caller may take it',
    properties: Object.fromEntries(ACTIONS.map((action) => [action, { type: 'boolean' }])),
    required: [...ACTIONS],
    selfRequired: true,
  })
  can!: Record<string, boolean>;
}
