/**
 * The DELETE's own query parameters, each given at most once: a repeated one (`a=1&a=2`) would reach the
 * handler as an array, and which value applies would be a guess.
 */
import { applyDecorators } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import { ValidationFailed } from '@decom/domain';
import { DRY_RUN_ALL } from './dry-run.js';

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

/**
 * The DELETE's query parameters in the OpenAPI document, beside the code that reads them (`deleteQueryOf`,
 * `isDryRun`): `delete_for_move`, `propagationPolicy`, `dryRun` and `deletion_budget_override`.
 */
export function ApiDeleteQuery(): MethodDecorator {
  return applyDecorators(
    ApiQuery({
      name: 'delete_for_move',
      required: false,
      enum: ['true', 'false'],
      description: 'Decom: keep the cloud objects for a move to another fleet (default false)',
    }),
    ApiQuery({
      name: 'propagationPolicy',
      required: false,
      enum: ['Foreground', 'Background'],
      description: 'Decom: Foreground waits for the dependents, Background does not',
    }),
    ApiQuery({
      name: 'dryRun',
      required: false,
      enum: [DRY_RUN_ALL],
      description:
        "Decom, Kubernetes' dry run: `All` decides the DELETE and records nothing (200 with the plan; a refusal is the DELETE's error with `dry_run: true`). Any other value or spelling is a 400.",
    }),
    ApiQuery({
      name: 'deletion_budget_override',
      required: false,
      type: String,
      description:
        "An administrator's reason (1..1024 characters) for going past the deletion budget (limits.deletions); recorded on DeletionRequested. Others: 403.",
    }),
  );
}
