import { ApiPropertyOptional } from '@nestjs/swagger';
import { ValidateBy, type ValidationArguments } from 'class-validator';
import { DRY_RUN_ALL } from '../dry-run.js';
import { GivenOnce } from './given-once.js';
import { OptionalField } from './optional-field.js';

/**
 * The DELETE's query parameters (`DELETE /{plural}/{id}`, flat or nested): this class documents them
 * (`@ApiQuery({ type: DeleteQueryDto })`) and validates them (`createQueryValidationPipe`); unknown ones are
 * dropped, as HyperFleet ignores them. Each is given at most once (400 `unique` otherwise) and
 * `delete_for_move` is `true` or `false` (400 `enum`). What needs more than the query is checked where it is
 * decided, for GraphQL's deleteResource as well: `propagationPolicy` and `deletion_budget_override` by
 * ResourceActions (after the caller's role and the target are known), `dryRun` by `isDryRun` (dry-run.ts),
 * which must see every spelling of the flag and the body.
 */
export class DeleteQueryDto {
  @ApiPropertyOptional({
    enum: ['true', 'false'],
    description: 'Decom: keep the cloud objects for a move to another fleet (default false)',
  })
  @OptionalField()
  @GivenOnce()
  @TrueOrFalse()
  delete_for_move?: 'true' | 'false';

  @ApiPropertyOptional({
    enum: ['Foreground', 'Background'],
    description: 'Decom: Foreground waits for the dependents, Background does not',
  })
  @OptionalField()
  @GivenOnce()
  propagationPolicy?: string;

  /** Documented here, read from the raw query by `isDryRun`: a near miss (`dryrun`, `dry_run`) is no property of this class. */
  @ApiPropertyOptional({
    enum: [DRY_RUN_ALL],
    description:
      "Decom, Kubernetes' dry run: `All` decides the DELETE and records nothing (200 with the plan; a refusal is the DELETE's error with `dry_run: true`). Any other value or spelling is a 400.",
  })
  dryRun?: string;

  @ApiPropertyOptional({
    type: String,
    description:
      "An administrator's reason (1..1024 characters) for going past the deletion budget (limits.deletions); recorded on DeletionRequested. Others: 403.",
  })
  @OptionalField()
  @GivenOnce()
  deletion_budget_override?: string;
}

/** `true` or `false`, as given (a repeated value is `GivenOnce`'s to refuse). */
function TrueOrFalse(): PropertyDecorator {
  return ValidateBy({
    name: 'isEnum',
    validator: {
      validate: (value) => typeof value !== 'string' || value === 'true' || value === 'false',
      defaultMessage: (args?: ValidationArguments) => `${args?.property} must be true or false`,
    },
  });
}
