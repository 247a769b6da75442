/** Dependency-injection tokens for ports (interfaces have no runtime value to inject by). */
export const EVENT_STORE = Symbol('EventStore');
export const KIND_REGISTRY = Symbol('KindRegistry');
export const RESOURCE_QUERIES = Symbol('ResourceQueries');
