export * from './job-queue.port.js';
export * from './in-process-job-queue.js';
export * from './job-names.js';
export * from './dispatch.reactor.js';
export * from './resource-address-book.js';
export * from './reactor-runner.js';
export * from './sweeper.js';
