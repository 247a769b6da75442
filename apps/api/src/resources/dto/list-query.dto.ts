import { IsString, Matches, MinLength } from 'class-validator';
import { BAD_REQUEST_CONTEXT } from '../../problem-details/validation-pipe.js';
import { IntegerQueryParam } from './integer-query-param.js';
import { OptionalField } from './optional-field.js';

const FIELD = '[a-z_][a-z0-9_]*(\\.[A-Za-z0-9_]+)*';
const SPARSE_FIELDS = new RegExp(`^\\s*${FIELD}(\\s*,\\s*${FIELD})*\\s*$`);

/**
 * List parameters (hyperfleet-api `pkg/handlers/list_params.go`): `page` ≥ 1, `size` 1..100,
 * `order` `field [asc|desc],...`, `search` (TSL, checked by the read side), `fields` (sparse fieldsets),
 * `ref_type` + `ref_target_id`, `kind` (`GET /resources` only: one configured kind, e.g. `Cluster`; empty means
 * every kind). Read with `createLenientValidationPipe`: other query parameters are ignored, as HyperFleet does.
 */
export class ListQueryDto {
  @OptionalField()
  @IntegerQueryParam({ min: 1, max: 100000 })
  page?: number;

  @OptionalField()
  @IntegerQueryParam({ min: 1, max: 100 })
  size?: number;

  @OptionalField()
  @IsString({ context: BAD_REQUEST_CONTEXT })
  @Matches(/^\s*(created_time|updated_time|name|generation|deleted_time|id)(\s+(asc|desc))?\s*(,\s*(created_time|updated_time|name|generation|deleted_time|id)(\s+(asc|desc))?\s*)*$/i, {
    message: 'order must be a comma list of "field [asc|desc]" with field in created_time, updated_time, name, generation, deleted_time, id',
    context: BAD_REQUEST_CONTEXT,
  })
  order?: string;

  @OptionalField()
  @IsString()
  search?: string;

  @OptionalField()
  @IsString()
  @Matches(SPARSE_FIELDS, { message: 'fields must be a comma list of field names (dotted for nested fields), e.g. "name,labels,status.conditions"' })
  fields?: string;

  @OptionalField()
  @IsString()
  @MinLength(1)
  ref_type?: string;

  @OptionalField()
  @IsString()
  @MinLength(1)
  ref_target_id?: string;

  @OptionalField()
  @IsString()
  kind?: string;
}
