/**
 * The DELETE's own query parameters, each given at most once: a repeated one (`a=1&a=2`) would reach the
 * handler as an array, and which value applies would be a guess.
 */
import { ValidationFailed } from '@decom/domain';

export interface DeleteQuery {
  /** `delete_for_move=true|false` (default false). */
  readonly deleteForMove: boolean;
  readonly propagationPolicy?: string;
  /** An administrator's reason for going past the deletion budget. */
  readonly budgetOverride?: string;
}

/** @throws ValidationFailed (400) for a repeated parameter or a `delete_for_move` other than true/false. */
export function deleteQueryOf(query: unknown): DeleteQuery {
  const params = (query ?? {}) as Record<string, unknown>;
  const move = single(params, 'delete_for_move');
  if (move !== undefined && move !== 'true' && move !== 'false') {
    const message = 'delete_for_move must be true or false';
    throw new ValidationFailed(message, [{ field: 'delete_for_move', value: move, constraint: 'enum', message }]);
  }
  const propagationPolicy = single(params, 'propagationPolicy');
  const budgetOverride = single(params, 'deletion_budget_override');
  return {
    deleteForMove: move === 'true',
    ...(propagationPolicy !== undefined && { propagationPolicy }),
    ...(budgetOverride !== undefined && { budgetOverride }),
  };
}

function single(params: Record<string, unknown>, name: string): string | undefined {
  const value = params[name];
  if (value === undefined || typeof value === 'string') return value;
  const count = Array.isArray(value) ? value.length : 2;
  const message = `${name} must be given once, got ${count} values`;
  throw new ValidationFailed(message, [{ field: name, value, constraint: 'unique', message }]);
}
