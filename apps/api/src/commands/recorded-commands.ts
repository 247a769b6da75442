import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { CommandContext, DecisionOutcome } from '@decom/application';
import { Problems } from '../problem-details/problem.js';
import { CLOCK, READ_SIDE, type Clock, type ReadSide } from '../tokens.js';

/** A command's outcome, and whether the read models have applied it (`false`: answer from the decided state). */
export type RecordedOutcome = DecisionOutcome & { readonly readSideCurrent: boolean };

/**
 * How every write path of the API (ResourceActions, BreakGlassActions) runs a command: refused before anything is
 * recorded while writes are refused, then read-your-writes, bounded. The times and caller of a command's
 * metadata come from here too, so they are stamped one way.
 */
@Injectable()
export class RecordedCommands {
  constructor(
    private readonly commandBus: CommandBus,
    @Inject(READ_SIDE) private readonly readSide: ReadSide,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** `{now, caller}` of a command decided now for `context`'s verified caller. */
  metadata(context: CommandContext): { now: string; caller: string } {
    return { now: this.clock.now().toISOString(), caller: context.caller };
  }

  /**
   * Runs `command`, then waits for the read models to apply what it recorded (read-your-writes).
   * Once the store has recorded it, the command is done whatever happens to the read side: a wait that
   * fails (PostgreSQL gone right after the append, projections behind past the wait's bound) is not a 503,
   * which would say "not done" (docs/operations.md "Outages"); the answer is then presented from the
   * decided state alone (`readSideCurrent: false`), as it is at once while the read models apply the backlog
   * found at start (`ReadSide.catchingUp`).
   * @throws HttpProblem 503 `SVC-001` before anything is recorded while writes are refused; what the command's
   *   handler throws (domain errors).
   */
  async run(command: object): Promise<RecordedOutcome> {
    const refusal = this.readSide.writeRefusal?.();
    if (refusal) throw Problems.unavailable(refusal);
    const outcome = await this.commandBus.execute<object, DecisionOutcome>(command as never);
    if (outcome.position === undefined) return { ...outcome, readSideCurrent: true };
    if (this.readSide.catchingUp?.()) return { ...outcome, readSideCurrent: false };
    const readSideCurrent = await this.readSide.waitFor(outcome.position).then(
      () => true,
      () => false,
    );
    return { ...outcome, readSideCurrent };
  }
}
