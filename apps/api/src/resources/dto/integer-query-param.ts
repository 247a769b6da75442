/**
 * A whole-number query parameter (`page`, `size`) whose message says what is wrong with the value given:
 * given twice (`?page=2&page=3`), not a whole number (`?page=abc`), or out of range — one violation, not
 * every constraint at once. The raw text is kept until it is known to be a whole number, so the message
 * can quote it.
 */
import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ValidateBy, type ValidationArguments } from 'class-validator';

const WHOLE_NUMBER = /^[+]?\d{1,15}$/;
/** Longest raw value quoted back (input is never echoed unbounded). */
const QUOTE_MAX = 32;

/**
 * The same range documents the parameter in the OpenAPI document (`integer`, `minimum`, `maximum`, and the
 * `default` the handler applies when it is absent), so what is documented is what is validated.
 */
export function IntegerQueryParam(range: {
  readonly min: number;
  readonly max: number;
  readonly default?: number;
  readonly description?: string;
}): PropertyDecorator {
  const isWhole = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value);
  return applyDecorators(
    ApiPropertyOptional({
      type: 'integer',
      minimum: range.min,
      maximum: range.max,
      ...(range.default !== undefined && { default: range.default }),
      ...(range.description && { description: range.description }),
    }),
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' && WHOLE_NUMBER.test(value.trim()) ? Number(value.trim()) : value,
    ),
    ValidateBy({
      name: 'singleValue',
      validator: {
        validate: (value) => !Array.isArray(value),
        defaultMessage: (args?: ValidationArguments) =>
          `${args?.property} must be given once, got ${(args?.value as unknown[]).length} values`,
      },
    }),
    ValidateBy({
      name: 'isInt',
      validator: {
        validate: (value) => Array.isArray(value) || isWhole(value),
        defaultMessage: (args?: ValidationArguments) =>
          `${args?.property} must be a whole number from ${range.min} to ${range.max}, got ${quote(args?.value)}`,
      },
    }),
    ValidateBy({
      name: 'min',
      validator: {
        validate: (value) => !isWhole(value) || value >= range.min,
        defaultMessage: (args?: ValidationArguments) => `${args?.property} must be at least ${range.min}, got ${String(args?.value)}`,
      },
    }),
    ValidateBy({
      name: 'max',
      validator: {
        validate: (value) => !isWhole(value) || value <= range.max,
        defaultMessage: (args?: ValidationArguments) => `${args?.property} must be at most ${range.max}, got ${String(args?.value)}`,
      },
    }),
  );
}

function quote(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return JSON.stringify(text.length > QUOTE_MAX ? `${text.slice(0, QUOTE_MAX)}…` : text);
}
