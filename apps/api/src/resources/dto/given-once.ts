/**
 * A query parameter given at most once: a repeated one (`a=1&a=2`) reaches the handler as an array, and
 * which value applies would be a guess. Refused (400 VAL-000) as `unique`, with the values given.
 */
import { ValidateBy, type ValidationArguments } from 'class-validator';
import { GIVEN_ONCE } from '../../problem-details/validation-pipe.js';

/** Passes an absent or single (string) value; the message counts the values given (`… got 2 values`). */
export function GivenOnce(): PropertyDecorator {
  return ValidateBy({
    name: GIVEN_ONCE,
    validator: {
      validate: (value) => value === undefined || typeof value === 'string',
      defaultMessage: (args?: ValidationArguments) =>
        `${args?.property} must be given once, got ${Array.isArray(args?.value) ? args.value.length : 2} values`,
    },
  });
}
