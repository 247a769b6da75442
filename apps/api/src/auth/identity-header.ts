/**
 * The identity header and the caller of a request without one: with JWT off the caller is
 * `X-HyperFleet-Identity`, else `system@hyperfleet.local`, as HyperFleet does with authentication disabled.
 */
export const IDENTITY_HEADER = 'x-hyperfleet-identity';
export const ANONYMOUS_CALLER = 'system@hyperfleet.local';
