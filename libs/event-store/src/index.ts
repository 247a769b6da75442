export * from './event-store.port.js';
export { DuplicateEventId } from './duplicate-event-id.error.js';
export { createEventStore, type EventStoreConfig } from './create-event-store.js';
export { SqliteEventStore, type SqliteEventStoreOptions } from './sqlite/sqlite-event-store.js';
export { runWhenSqliteIdle } from './sqlite/run-when-sqlite-idle.js';
export { PostgresEventStore, type PostgresEventStoreOptions } from './postgres/postgres-event-store.js';
export { EsdbEventStore, type EsdbEventStoreOptions } from './esdb/esdb-event-store.js';
export * from './supervision/index.js';
