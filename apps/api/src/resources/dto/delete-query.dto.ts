import { ApiPropertyOptional } from '@nestjs/swagger';
import { ValidateBy, type ValidationArguments } from 'class-validator';
import { ValidationFailed } from '@decom/domain';
import { DRY_RUN_ALL } from '../dry-run.js';
import { GivenOnce } from './given-once.js';
import { OptionalField } from './optional-field.js';

/**
 * The DELETE's query parameters (`DELETE /{plural}/{id}`, flat or nested): this class documents them
 * (`@ApiQuery({ type: DeleteQueryDto })`) and validates them (`createQueryValidationPipe`); an unknown one is
 * refused (`refuseUnknownDeleteParameters`). Each is given at most once (400 `unique` otherwise) and
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

/** Every DELETE parameter: the compiler checks this against the class, so a new property cannot be refused as unknown. */
const DELETE_PARAMETERS: Readonly<Record<keyof DeleteQueryDto, true>> = {
  delete_for_move: true,
  propagationPolicy: true,
  dryRun: true,
  deletion_budget_override: true,
};

/**
 * Refuses a DELETE query parameter that is not one of `DeleteQueryDto`'s. HyperFleet ignores unknown
 * parameters, and does on lists here too; on a DELETE an ignored near miss (`propagationpolicy=Orphan`,
 * `Delete_For_Move=true`, `dryRuns=All`, `dryRun[a]=All`) carries out a deletion other than the one asked
 * for, so it is a 400 and nothing is deleted. Run after `isDryRun`, whose answer names a dryRun near miss.
 * @throws ValidationFailed (400, the parameter as `field`, constraint `enum`) for the first unknown name.
 */
export function refuseUnknownDeleteParameters(query: unknown): void {
  const names = query !== null && typeof query === 'object' ? Object.keys(query) : [];
  const unknown = names.find((name) => !Object.hasOwn(DELETE_PARAMETERS, name));
  if (unknown === undefined) return;
  const known = Object.keys(DELETE_PARAMETERS).join(', ');
  const message = `unknown DELETE parameter '${unknown.slice(0, 64)}' (known: ${known}): nothing was deleted`;
  throw new ValidationFailed(message, [{ field: unknown.slice(0, 64), constraint: 'enum', message }]);
}
