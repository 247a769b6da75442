/**
 * The API app's public entry point: the API process (`startApiProcess`, main.ts) that `decom start` and
 * `decom api` run, the read-model rebuild of `decom projections rebuild`, and the parts of the REST/GraphQL
 * API other code builds on (authentication, the hard-delete job, the leak inventory). Other apps import the
 * API only from here.
 */
export { startApiProcess, PortInUse, type ApiProcess, type ApiProcessOptions } from './main.js';
export {
  createProjections,
  rebuildProjections,
  UnknownProjection,
  type RebuildOptions,
  type RebuildReport,
} from './process/rebuild-projections.js';
export { openStorage, StorageUnavailable, type Storage } from './process/storage.js';
export { createApiApp, HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS } from './create-api-app.js';
export { standaloneOpenApiDocument } from './openapi/standalone-document.js';
export { headerAuth, type ApiAuth, type ApiRuntime } from './app.module.js';
export {
  AccessPolicy,
  ACTIONS,
  type AccessDecision,
  type AccessPolicyOptions,
  type Principal,
  type ResourceAction,
  type Role,
} from './auth/access-policy.js';
export { Authenticator, ANONYMOUS_READER, isLoopbackHostHeader, type AuthenticatorOptions } from './auth/authenticator.js';
export { EmbeddedIssuer, EMBEDDED_AUDIENCE, EMBEDDED_ISSUER } from './auth/embedded-issuer.js';
export { JwtVerifier, TOKEN_ALGORITHMS, type JwtVerifierOptions, type VerifiedToken } from './auth/jwt-verifier.js';
export { TenantResolver } from './auth/tenant-resolver.js';
export { openStartupGate, type StartupGate } from './http-edge/startup-gate.js';
export { registerHardDeleteProcessor } from './jobs/hard-delete.processor.js';
export { LeakInventoryReactor, LEAK_INVENTORY_CALLER } from './leaks/leak-inventory.reactor.js';
export { KubernetesCleanupVerifier } from './leaks/kubernetes-cleanup-verifier.js';
export { LeakScanner, LeakScannerSlot, type LeakJson, type LeakScanSummary, type OwnerState } from './leaks/leak-scanner.js';
export { domainTransitionObserver } from './observability/domain-transitions.js';
export { startOtlpExport, type RequestSpan, type SpanExporter } from './observability/otlp-export.js';
export type * from './tokens.js';
