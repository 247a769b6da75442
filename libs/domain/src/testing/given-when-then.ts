/**
 * `given(events).when(command).then(events)` for the resource decider. Pure: no Nest, no DB.
 */
import { decide } from '../resource/decide.js';
import { fold } from '../resource/evolve.js';
import type { KindRegistry } from '../resource/kinds.js';
import type { ResourceCommand } from '../resource/resource.commands.js';
import type { ResourceEvent } from '../resource/resource.events.js';

export function deciderSpec(kinds: KindRegistry) {
  return {
    given(history: readonly ResourceEvent[]) {
      return {
        when(command: ResourceCommand) {
          const run = () => decide(command, fold(history), kinds);
          return {
            then(expected: readonly ResourceEvent[]) {
              expect(run()).toEqual(expected);
            },
            thenEvents(): ResourceEvent[] {
              return run();
            },
            thenThrows(errorClass: abstract new (...args: never[]) => Error, message?: string | RegExp) {
              expect(run).toThrow(errorClass as unknown as new () => Error);
              if (message) expect(run).toThrow(message);
            },
          };
        },
      };
    },
  };
}
