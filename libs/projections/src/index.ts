export * from './runner/index.js';
export * from './resource-href.js';
export * from './resource-view.schema.js';
export * from './resource-view.projection.js';
export * from './resource-presenter.js';
export * from './resource-queries.js';
export * from './search/index.js';
export * from './audit.projection.js';
