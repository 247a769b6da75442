export * from './decom-metrics.js';
export * from './metrics-server.js';
export * from './route-label.js';
export { Registry } from 'prom-client';
