/**
 * Builds the Nest application on Fastify with the global validation pipe and problem-details filter.
 */
import type { LoggerService } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule, headerAuth, type ApiRuntime } from './app.module.js';
import { installAuthentication } from './auth/request-authentication.js';
import { installRateLimit } from './auth/rate-limit.js';
import { installPublicRoutes } from './auth/public-routes.js';
import { installGraphqlRequestCheck } from './graphql/graphql-transport-errors.js';
import { ProblemDetailsFilter } from './problem-details/problem-details.filter.js';
import { createValidationPipe } from './problem-details/validation-pipe.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Socket } from 'node:net';
import { clientErrorHandler, fastifyErrorHandler, frameworkErrorHandler } from './http-edge/framework-errors.js';
import { mapError } from './problem-details/error-map.js';
import { JSON_CONTENT_TYPE, parseJsonBody } from './http-edge/json-body-parser.js';
import {
  installRequestObservability,
  logUnparsedAnswer,
  observeUnroutedAnswer,
  traceRequestId,
  type RequestObservability,
} from './http-edge/request-observability.js';
import { AllowedMethods } from './http-edge/allowed-methods.js';
import { Problems } from './problem-details/problem.js';
import { installSecurityHeaders } from './http-edge/security-headers.js';
import { registerUiRoutes } from './ui/ui-static.js';
import { registerResourceReadRoutes } from './resources/resource-read-routes.js';
import { openApiDocument } from './openapi/openapi-document.js';
import { OpenApiDocumentSlot } from './openapi/openapi-document-slot.js';

/**
 * One Fastify error handler, installed before Nest registers its routes (so their contexts inherit it):
 * errors Decom raises outside a route (the JSON body parser's problems) become problem details; anything
 * else goes to the handler Nest asks for (its exception layer), or to the framework-error renderer.
 * Nest's own `setErrorHandler` call is captured instead of installing a second handler over the first.
 */
class ProblemFastifyAdapter extends FastifyAdapter {
  private nestHandler?: (this: unknown, error: Error, request: FastifyRequest, reply: FastifyReply) => unknown;

  constructor(
    options: Record<string, unknown>,
    private readonly allowed: AllowedMethods,
  ) {
    super(options as never);
    const adapter = this;
    // First hook: every route is marked public or not before any other hook sees it (deny by default).
    installPublicRoutes(this.getInstance() as never);
    this.getInstance().addHook('onRoute', (route) => allowed.add(route.method, route.url));
    this.getInstance().setErrorHandler(function (this: unknown, error: Error, request: FastifyRequest, reply: FastifyReply) {
      if (mapError(error)) return fastifyErrorHandler(error, request, reply);
      if (adapter.nestHandler) return adapter.nestHandler.call(this, error, request, reply);
      return frameworkErrorHandler(error, request, reply);
    });
  }

  override setErrorHandler(handler: Parameters<FastifyAdapter['setErrorHandler']>[0]) {
    this.nestHandler = handler as never;
    return this.getInstance() as never;
  }

  /**
   * No route for this method: a path that other methods answer gets 405 with `Allow` (OPTIONS: 204 with
   * `Allow`, when no CORS preflight answered it); an unknown path goes on to Nest's 404.
   */
  override setNotFoundHandler(handler: Parameters<FastifyAdapter['setNotFoundHandler']>[0]) {
    const allowed = this.allowed;
    return super.setNotFoundHandler(function (this: unknown, request: FastifyRequest, reply: FastifyReply) {
      const methods = allowed.of(request.url);
      if (methods.length === 0)
        return (handler as (this: unknown, req: FastifyRequest, rep: FastifyReply) => unknown).call(this, request, reply);
      if (request.method === 'OPTIONS')
        return void reply
          .header('allow', [...methods, 'OPTIONS'].join(', '))
          .status(204)
          .send();
      return fastifyErrorHandler(methodNotAllowed(request, reply, methods), request, reply);
    } as never);
  }
}

/** The 405 problem for `request`, with `Allow` set on `reply` (`methods` plus OPTIONS). */
function methodNotAllowed(request: FastifyRequest, reply: FastifyReply, methods: readonly string[]) {
  void reply.header('allow', [...methods, 'OPTIONS'].join(', '));
  return Problems.methodNotAllowed(`${request.method.slice(0, 16)} is not allowed here; allowed: ${methods.join(', ')}`);
}

/**
 * A known path with a method only a parameter route matched (`POST /clusters/{id}/statuses` reaching
 * `POST /:plural/:id/:childPlural` with `statuses` as a kind): 405 with `Allow`, as for any other wrong method.
 */
function installMisroutedMethodCheck(fastify: FastifyInstance, allowed: AllowedMethods): void {
  // Callback style (no promise per request: it runs on every route).
  fastify.addHook('onRequest', (request, reply, done) => {
    if (request.method === 'OPTIONS') return done();
    const methods = allowed.misrouted((request.params ?? {}) as Record<string, string | undefined>, request.url);
    done(methods.length > 0 ? methodNotAllowed(request, reply, methods) : undefined);
  });
}

/** Node's `server.headersTimeout`: milliseconds a client has to send its request headers. */
export const HEADERS_TIMEOUT_MS = 10_000;
/** Node's `server.requestTimeout`: milliseconds a client has to send its whole request. */
export const REQUEST_TIMEOUT_MS = 30_000;

/**
 * `options.logger`: Nest's own error/warn log on (default) or off, or a `LoggerService` that receives Nest's
 * lines (the engine passes its JSON logger); `options.observability`: access log and request metrics
 * (request-observability.ts). The trace id is chosen per request either way.
 */
export async function createApiApp(
  runtime: ApiRuntime,
  options: { logger?: boolean | LoggerService; observability?: RequestObservability } = {},
): Promise<NestFastifyApplication> {
  // `/:plural` also matches `/bogus`: only configured kinds (and `/resources`) make a path known.
  const isPlural = (segment: string | undefined) => segment === undefined || runtime.kinds.byPluralName(segment) !== undefined;
  const allowed = new AllowedMethods(
    (params) => (params['plural'] === 'resources' || isPlural(params['plural'])) && isPlural(params['childPlural']),
  );
  const auth = runtime.auth ?? headerAuth(runtime.options.admins);
  const trustedProxies = auth.trustedProxies ?? [];
  const adapter = new ProblemFastifyAdapter(
    {
      genReqId: traceRequestId,
      // The client address (rate limit, logs) comes from X-Forwarded-For only through a configured proxy.
      ...(trustedProxies.length > 0 ? { trustProxy: [...trustedProxies] } : {}),
      bodyLimit: 1024 * 1024,
      // A client that opens sockets and never finishes its request holds them only briefly: headers within
      // 10 s, the whole request (1 MiB at most) within 30 s, checked every second. Streams answering a request
      // (SSE) are not affected: these clocks stop once the request is received.
      requestTimeout: REQUEST_TIMEOUT_MS,
      http: { headersTimeout: HEADERS_TIMEOUT_MS, connectionsCheckingInterval: 1_000 },
      frameworkErrors: (error: Error, request: FastifyRequest, reply: FastifyReply) => {
        observeUnroutedAnswer(options.observability ?? {}, request, reply);
        frameworkErrorHandler(error, request, reply);
      },
      clientErrorHandler: (error: Error, socket: Socket) =>
        clientErrorHandler(error, socket, (status, traceId) => logUnparsedAnswer(options.observability ?? {}, status, traceId)),
    },
    allowed,
  );
  const fastify = adapter.getInstance();
  // The metrics `path` label keeps configured plurals (and `resources`) literal, as HyperFleet's names are.
  installRequestObservability(
    fastify as never,
    options.observability ?? {},
    (segment) => segment === 'resources' || runtime.kinds.byPluralName(segment) !== undefined,
  );
  // JSON only: other media types get 415 (problem details) instead of being half-parsed.
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(JSON_CONTENT_TYPE, { parseAs: 'buffer' }, (_request, body, done) => {
    try {
      done(null, parseJsonBody(body as Buffer));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  // Before Nest registers its routes and Mercurius: every route, REST and GraphQL, passes the same hooks.
  // The rate limit before authentication: the authentication hook counts refused requests in its per-address bucket.
  // Security headers first: an answer the hooks below refuse (401, 403, 429) carries them too.
  installSecurityHeaders(fastify as never);
  const addressLimiter = auth.rateLimit?.enabled ? await installRateLimit(fastify, auth.rateLimit) : undefined;
  installAuthentication(fastify, auth.authenticator, addressLimiter);
  installMisroutedMethodCheck(fastify, allowed);
  installGraphqlRequestCheck(fastify);
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRuntime(runtime), adapter, {
    logger: options.logger === false ? false : options.logger === undefined || options.logger === true ? ['error', 'warn'] : options.logger,
    bodyParser: false,
  });
  const corsOrigins = runtime.options.corsOrigins ?? [];
  if (corsOrigins.length > 0) {
    // @fastify/cors answers preflights and sets the headers; off by default (DECOM_CORS_ORIGINS unset).
    app.enableCors({
      origin: corsOrigins.includes('*') ? '*' : [...corsOrigins],
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
      allowedHeaders: ['content-type', 'authorization', 'if-match', 'x-hyperfleet-identity', 'x-request-id'],
      exposedHeaders: ['location', 'etag', 'x-request-id'],
      maxAge: 600,
      // A plain OPTIONS (no preflight headers) is answered 204 like any other, not 400.
      strictPreflight: false,
    });
  }
  // The web UI's static files, served by every process that serves the API.
  registerUiRoutes(fastify);
  const problems = new ProblemDetailsFilter();
  // The hot reads as plain Fastify routes, registered before Nest registers its own.
  registerResourceReadRoutes(fastify as never, { kinds: runtime.kinds, queries: runtime.queries, problems });
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(problems);
  // Generated from the controllers this application registered (and the plain Fastify routes above).
  const security = { jwt: auth.authenticator.jwtEnabled, anonymousReads: auth.authenticator.anonymousReads };
  app
    .get(OpenApiDocumentSlot)
    .set(() => openApiDocument(app, { kinds: runtime.kinds, version: runtime.options.version ?? '0.0.0', security }));
  // No enableShutdownHooks(): the engine owns SIGINT/SIGTERM (stopOnSignals) and closes the app among its
  // other parts; Nest's hook re-raised the signal after closing only itself, killing the process mid-stop.
  return app;
}
