/**
 * The OpenAPI 3.0.3 document of every Decom endpoint, generated from the code that serves and validates
 * the requests: `@nestjs/swagger` scans the Nest application's controllers (route, `@ApiOperation`,
 * `@ApiProblems`, answer classes) and the class-validator DTOs their parameters and bodies are validated
 * with (`@ApiProperty` on the same fields; `IntegerQueryParam` documents the range it checks), plus the
 * routes Fastify serves outside Nest (outside-nest-routes.ts). Then three Decom-specific steps:
 * security from the public-route rule (operation-security.ts), the generic kind routes expanded per
 * configured kind (kind-paths.ts), and paths made relative to their base (`/api/hyperfleet/v1` for the
 * document; `/api/decom/v1` and `/` as per-path `servers`).
 * Served at `/api/hyperfleet/v1/openapi.{json,yaml}`; the web UI's types are generated from it
 * (apps/ui/src/api-types.generated.ts).
 */
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import type { KindRegistry } from '@decom/domain';
import { ProblemAnswer } from './answers/problem.answer.js';
import { expandKindPaths } from './kind-paths.js';
import { applySecurity, securitySchemes, type ApiSecurityMode } from './operation-security.js';
import { OutsideNestRoutesModule } from './outside-nest-routes.js';

type Json = Record<string, any>;
const HF = '/api/hyperfleet/v1';
const DECOM_BASE = '/api/decom/v1';
/** Decom's operations that HyperFleet does not have carry this tag (besides their kind's). */
const DECOM = 'Decom';

export interface OpenApiOptions {
  readonly kinds: KindRegistry;
  /** `info.version`: the engine's version. */
  readonly version: string;
  readonly security: ApiSecurityMode;
}

let outside: Promise<OpenAPIObject> | undefined;

/**
 * The document of `app`'s controllers and the routes served outside Nest, for the kinds of `options`.
 * `app` may be created in preview mode (no instances): only its controllers' metadata is read.
 * @returns the OpenAPI 3.0.3 document (a plain JSON value)
 * @throws Error when a generic kind route cannot be expanded (kind-paths.ts) or a route is described twice
 */
export async function openApiDocument(app: INestApplication, options: OpenApiOptions): Promise<Json> {
  const config = new DocumentBuilder().setOpenAPIVersion('3.0.3').build();
  const own = SwaggerModule.createDocument(app, config, { extraModels: [ProblemAnswer], autoTagControllers: false });
  // The same for every process: scanned once (a preview application: nothing instantiated, nothing routed).
  outside ??= scanOutsideNest(config);
  // A copy: the steps below set security on the operations, which differs per application.
  const theirs = structuredClone(await outside);
  const paths: Record<string, Json> = { ...(own.paths as Json) };
  for (const [path, item] of Object.entries(theirs.paths as Json)) {
    const clash = Object.keys(item as Json).filter((method) => paths[path]?.[method] !== undefined);
    if (clash.length > 0)
      throw new Error(`OpenAPI: ${clash.join(', ')} ${path} is described by a controller and by outside-nest-routes.ts`);
    paths[path] = { ...(item as Json), ...paths[path] };
  }
  const expanded = expandKindPaths(applySecurity(paths, options.security), options.kinds);
  return {
    openapi: '3.0.3',
    info: {
      title: 'Decom (HyperFleet-compatible API)',
      version: options.version,
      description:
        'HyperFleet API wire format plus Decom operator endpoints. Every answer carries an `X-Request-Id` header (the trace id).',
    },
    servers: [{ url: HF }],
    tags: [{ name: DECOM, description: "Decom's own operations and parameters: HyperFleet's API has no such operation" }],
    paths: relativePaths(expanded),
    components: {
      schemas: { ...(theirs.components?.schemas ?? {}), ...(own.components?.schemas ?? {}) },
      securitySchemes: securitySchemes(options.security),
    },
  };
}

async function scanOutsideNest(config: Omit<OpenAPIObject, 'paths'>): Promise<OpenAPIObject> {
  const app = await NestFactory.create(OutsideNestRoutesModule, new FastifyAdapter(), { preview: true, logger: false });
  try {
    return SwaggerModule.createDocument(app, config, { autoTagControllers: false });
  } finally {
    await app.close();
  }
}

/**
 * Paths relative to their base: HyperFleet's under the document's server (`/clusters`), Decom's own under
 * `/api/decom/v1` and the root ones (`/healthz`, `/graphql`) with a per-path `servers` entry.
 */
function relativePaths(paths: Record<string, Json>): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const [path, item] of Object.entries(paths)) {
    const [relative, server] = path.startsWith(`${HF}/`)
      ? [path.slice(HF.length), undefined]
      : path.startsWith(`${DECOM_BASE}/`)
        ? [path.slice(DECOM_BASE.length), DECOM_BASE]
        : [path, '/'];
    if (out[relative]) throw new Error(`OpenAPI: two routes at ${relative}`);
    out[relative] = server === undefined ? item : { servers: [{ url: server }], ...item };
  }
  return out;
}
