/**
 * The OpenAPI document without a running engine: the API module for `kinds`, created in Nest's preview
 * mode (controllers' metadata only: nothing is instantiated, connected or routed), through the same
 * `openApiDocument` the engine serves. For the generated UI types (generate-api-types.ts) and the checks
 * against HyperFleet's spec. Authentication as by default (JWT off, the identity header).
 */
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { KindRegistry } from '@decom/domain';
import { AppModule, type ApiRuntime } from '../app.module.js';
import { openApiDocument } from './openapi-document.js';
import type { ApiSecurityMode } from './operation-security.js';

export async function standaloneOpenApiDocument(
  kinds: KindRegistry,
  security: ApiSecurityMode = { jwt: false, anonymousReads: false },
  version = '0.0.0',
): Promise<Record<string, any>> {
  // Preview mode reads no provider: only what AppModule.forRuntime reads while declaring them.
  const runtime = { kinds, options: { admins: [] } } as unknown as ApiRuntime;
  const app = await NestFactory.create(AppModule.forRuntime(runtime), new FastifyAdapter(), { preview: true, logger: false });
  try {
    return await openApiDocument(app, { kinds, version, security });
  } finally {
    await app.close();
  }
}
