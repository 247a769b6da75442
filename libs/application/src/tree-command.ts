/**
 * A command on one resource's tree: the domain command (`payload`, naming the resource by `kind` and `id`) and
 * who sent it (`context`). Each command is its own subclass so `@CommandHandler` can route it:
 * `export class ForceDeleteCommand extends TreeCommand<ForceDelete> {}`.
 */
import { Command } from '@nestjs/cqrs';
import type { CommandContext } from './command-context.js';
import type { DecisionOutcome } from './resource-tree.repository.js';

/** What every domain command names: the resource it acts on. */
export interface ResourceAddress {
  readonly kind: string;
  readonly id: string;
}

/** `CommandBus.execute` answers it with the `DecisionOutcome` (typed through `Command<R>`). */
export abstract class TreeCommand<P extends ResourceAddress> extends Command<DecisionOutcome> {
  constructor(
    readonly payload: P,
    readonly context: CommandContext,
  ) {
    super();
  }
}
