export * from './tokens.js';
export * from './command-context.js';
export * from './resource-tree.repository.js';
export * from './tree-cache.js';
export * from './stream-locator.js';
export * from './tree-command.js';
export * from './tree-command.handler.js';
export * from './operator-command.handler.js';
export * from './create-resource.handler.js';
export * from './patch-resource.handler.js';
export * from './request-deletion.handler.js';
export * from './preview-deletion.handler.js';
export * from './report-adapter-status.handler.js';
export * from './hard-delete.handler.js';
export * from './cleanup-verifier.js';
export * from './force-delete.handler.js';
export * from './set-paused.handler.js';
export * from './force-orphan.handler.js';
export * from './record-leaks.handler.js';
export * from './abandon-adapter.handler.js';
export * from './request-break-glass.handler.js';
export * from './decide-break-glass.handler.js';

import { CreateResourceHandler } from './create-resource.handler.js';
import { ForceDeleteHandler } from './force-delete.handler.js';
import { HardDeleteHandler } from './hard-delete.handler.js';
import { PatchResourceHandler } from './patch-resource.handler.js';
import { ReportAdapterStatusHandler } from './report-adapter-status.handler.js';
import { RequestDeletionHandler } from './request-deletion.handler.js';
import { PreviewDeletionHandler } from './preview-deletion.handler.js';
import { SetPausedHandler } from './set-paused.handler.js';
import { ForceOrphanHandler } from './force-orphan.handler.js';
import { RecordLeakCleanupHandler, RecordLeakInventoryHandler } from './record-leaks.handler.js';
import { AbandonAdapterHandler } from './abandon-adapter.handler.js';
import { RequestBreakGlassHandler } from './request-break-glass.handler.js';
import { DecideBreakGlassHandler } from './decide-break-glass.handler.js';

export const COMMAND_HANDLERS = [
  CreateResourceHandler,
  PatchResourceHandler,
  RequestDeletionHandler,
  ReportAdapterStatusHandler,
  HardDeleteHandler,
  ForceDeleteHandler,
  SetPausedHandler,
  ForceOrphanHandler,
  RecordLeakInventoryHandler,
  RecordLeakCleanupHandler,
  AbandonAdapterHandler,
  RequestBreakGlassHandler,
  DecideBreakGlassHandler,
];

/** Read-only handlers: they decide on current state and record nothing. */
export const QUERY_HANDLERS = [PreviewDeletionHandler];
