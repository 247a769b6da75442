/**
 * `GET /api/decom/v1/kinds`: the registered resource kinds (HyperFleet `entities`, config/entities.yaml),
 * so clients such as the web UI find a kind's children (`parent_kind`) and timeouts without hard-coding them.
 */
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiProblems } from '../openapi/problem-responses.js';
import { KindListAnswer } from './kind-list.answer.js';
import { Controller, Get, Inject } from '@nestjs/common';
import { KIND_REGISTRY } from '@decom/application';
import type { KindDescriptor, KindRegistry } from '@decom/domain';

@Controller('api/decom/v1/kinds')
@ApiTags('Decom')
export class KindsController {
  constructor(@Inject(KIND_REGISTRY) private readonly kinds: KindRegistry) {}

  @ApiOperation({ operationId: 'getKinds', summary: 'The registered resource kinds (config/entities.yaml)' })
  @ApiOkResponse({ type: KindListAnswer, description: 'kinds' })
  @ApiProblems()
  @Get()
  list(): { total: number; items: readonly KindDescriptor[] } {
    return { total: this.kinds.descriptors.length, items: this.kinds.descriptors };
  }
}
