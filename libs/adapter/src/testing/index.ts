/** Test fixtures for code that hosts adapters (apps' tests import them as `@decom/adapter/testing`). */
export * from './executor-harness.js';
export * from './reporting-task-config.js';
