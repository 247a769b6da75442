/**
 * A command an operator sends (DELETE, force-delete, force-orphan, pause, abandon an adapter, break-glass): it must
 * not lose to adapter traffic on a busy tree, so it gets OPERATOR_CONFLICT_RETRIES re-decisions instead of the
 * default (resource-tree.repository.ts). Written like any `TreeCommandHandler`, extending this class instead.
 */
import { OPERATOR_CONFLICT_RETRIES } from './resource-tree.repository.js';
import type { ResourceAddress } from './tree-command.js';
import { TreeCommandHandler } from './tree-command.handler.js';

export abstract class OperatorCommandHandler<P extends ResourceAddress> extends TreeCommandHandler<P> {
  protected override readonly maxConflictRetries = OPERATOR_CONFLICT_RETRIES;
}
