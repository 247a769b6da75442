/**
 * The routes Fastify serves outside Nest's controllers, described with the same decorators as a controller
 * so they enter the OpenAPI document the same way: the two hot reads (resource-read-routes.ts, validated by
 * `ListQueryDto` like the Nest routes) and GraphQL (Mercurius, `/graphql`). These classes are never routed:
 * `openApiDocument` scans them in an application of their own, created in preview mode (no instances, no
 * routes). A route added to resource-read-routes.ts or another plain Fastify route is described here.
 */
import { Controller, Get, Module, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiQuery, ApiSchema, ApiTags } from '@nestjs/swagger';
import { ListQueryDto } from '../resources/dto/list-query.dto.js';
import { ResourceAnswer } from '../resources/answers/resource.answer.js';
import { ResourceListAnswer } from '../resources/answers/resource-list.answer.js';
import { ApiProblems } from './problem-responses.js';

/** `registerResourceReadRoutes`: `GET /api/hyperfleet/v1/:plural` and `GET /api/hyperfleet/v1/:plural/:id`. */
@Controller('api/hyperfleet/v1')
@ApiTags('{Kind}')
export class ResourceReadRoutesDescription {
  @ApiOperation({ operationId: 'get{Kinds}', summary: 'List {Kind}s' })
  @ApiQuery({ type: ListQueryDto })
  @ApiOkResponse({ type: ResourceListAnswer, description: 'page' })
  @ApiProblems(400, 404)
  @Get(':plural')
  list(): void {}

  @ApiOperation({ operationId: 'get{Kind}ById{Flat}', summary: 'Get a {Kind}' })
  @ApiQuery({ type: ListQueryDto })
  @ApiOkResponse({ type: ResourceAnswer, description: '{Kind}' })
  @ApiProblems(400, 404)
  @Get(':plural/:id')
  get(): void {}
}

/** A GraphQL request (GraphQL over HTTP). */
@ApiSchema({ name: 'GraphqlRequest' })
class GraphqlRequest {
  @ApiProperty() query!: string;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) variables?: Record<string, unknown>;
  @ApiPropertyOptional() operationName?: string;
}

/** A GraphQL answer: `data`, and `errors` for what failed. */
@ApiSchema({ name: 'GraphqlAnswer' })
class GraphqlAnswer {
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) data?: Record<string, unknown>;
  @ApiPropertyOptional({ type: 'array', items: { type: 'object' } }) errors?: object[];
}

/** Mercurius' `/graphql` (app.module.ts): the same queries and operator mutations as the REST routes. */
@Controller()
@ApiTags('Decom')
export class GraphqlRouteDescription {
  @ApiOperation({ operationId: 'getGraphql', summary: 'GraphQL query over GET (a mutation over GET is 405)' })
  @ApiQuery({ name: 'query', required: true, type: String })
  @ApiQuery({ name: 'variables', required: false, type: String, description: 'JSON object' })
  @ApiQuery({ name: 'operationName', required: false, type: String })
  @ApiOkResponse({ type: GraphqlAnswer, description: 'GraphQL response' })
  @ApiProblems(400, 405)
  @Get('graphql')
  get(): void {}

  @ApiOperation({
    operationId: 'postGraphql',
    summary: 'GraphQL: the same queries and operator mutations; schema in apps/api/src/graphql/schema.ts',
  })
  @ApiBody({ type: GraphqlRequest })
  @ApiOkResponse({ type: GraphqlAnswer, description: 'GraphQL response' })
  @ApiProblems(400)
  @Post('graphql')
  post(): void {}
}

@Module({ controllers: [ResourceReadRoutesDescription, GraphqlRouteDescription] })
export class OutsideNestRoutesModule {}
