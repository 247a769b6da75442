export type { ReadModelStore, ReadModelTx, ReadModelQueries } from './read-model-store.port.js';
export type { Projection } from './projection.port.js';
export { SqliteReadModelStore } from './sqlite-read-model-store.js';
export { PostgresReadModelStore, type PostgresReadModelStoreOptions } from './postgres-read-model-store.js';
export { ProjectionRunner, type ProjectionRunnerOptions } from './projection-runner.js';
export { ProjectionWaitTimeout } from './projection-wait-timeout.error.js';
export { toPositionalPlaceholders } from './positional-placeholders.js';
export { schemaTables } from './schema-tables.js';
