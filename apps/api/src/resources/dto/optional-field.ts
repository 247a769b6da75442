import { ValidateIf } from 'class-validator';

/**
 * Like `@IsOptional()`, but only an absent field is optional: an explicit `null` is validated (and
 * refused by the field's type rule) instead of slipping through to the domain.
 */
export const OptionalField = (): PropertyDecorator => ValidateIf((_object, value) => value !== undefined);
