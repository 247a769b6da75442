export * from './app-config.js';
export * from './entities-config.js';
export * from './config-paths.js';
export * from './server-config.js';
export * from './config-variables.js';
export * from './yaml-scalar-position.js';
export * from './go-duration.js';
export * from './identity.js';
