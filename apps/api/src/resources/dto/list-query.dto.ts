import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Matches, MinLength } from 'class-validator';
import { MAX_SEARCH_LENGTH } from '@decom/projections';
import { BAD_REQUEST_CONTEXT } from '../../problem-details/validation-pipe.js';
import { IntegerQueryParam } from './integer-query-param.js';
import { OptionalField } from './optional-field.js';

const FIELD = '[a-z_][a-z0-9_]*(\\.[A-Za-z0-9_]+)*';
const SPARSE_FIELDS = new RegExp(`^\\s*${FIELD}(\\s*,\\s*${FIELD})*\\s*$`);
const ORDER_FIELD = '(created_time|updated_time|name|generation|deleted_time|id)';
const ORDER = new RegExp(`^\\s*${ORDER_FIELD}(\\s+(asc|desc))?\\s*(,\\s*${ORDER_FIELD}(\\s+(asc|desc))?\\s*)*$`, 'i');
/** Items per page when `size` is absent (HyperFleet's default). */
export const DEFAULT_PAGE_SIZE = 20;

/**
 * List parameters (hyperfleet-api `pkg/handlers/list_params.go`): `page` ≥ 1, `size` 1..100,
 * `order` `field [asc|desc],...`, `search` (TSL, checked by the read side), `fields` (sparse fieldsets),
 * `ref_type` + `ref_target_id`, `kind` (`GET /resources` only: one configured kind, e.g. `Cluster`; empty means
 * every kind). Read with `createLenientValidationPipe`: other query parameters are ignored, as HyperFleet does.
 */
export class ListQueryDto {
  @OptionalField()
  @IntegerQueryParam({ min: 1, max: 100000, default: 1 })
  page?: number;

  @OptionalField()
  @IntegerQueryParam({ min: 1, max: 100, default: DEFAULT_PAGE_SIZE, description: 'items per page' })
  size?: number;

  @ApiPropertyOptional({
    default: 'created_time desc',
    description: 'comma list of `field [asc|desc]`, field one of created_time, updated_time, name, generation, deleted_time, id',
  })
  @OptionalField()
  @IsString({ context: BAD_REQUEST_CONTEXT })
  @Matches(ORDER, {
    message:
      'order must be a comma list of "field [asc|desc]" with field in created_time, updated_time, name, generation, deleted_time, id',
    context: BAD_REQUEST_CONTEXT,
  })
  order?: string;

  @ApiPropertyOptional({
    maxLength: MAX_SEARCH_LENGTH,
    description: "TSL filter (hyperfleet-api pkg/db/sql_tsl.go), e.g. `status.conditions.Reconciled='True' and labels.env='prod'`",
  })
  @OptionalField()
  @IsString()
  search?: string;

  @ApiPropertyOptional({ description: 'sparse fieldset, comma separated (`id` always included; dotted names select nested fields)' })
  @OptionalField()
  @IsString()
  @Matches(SPARSE_FIELDS, {
    message: 'fields must be a comma list of field names (dotted for nested fields), e.g. "name,labels,status.conditions"',
  })
  fields?: string;

  @ApiPropertyOptional({ minLength: 1, description: 'with ref_target_id: only resources whose `references.<ref_type>` names that target' })
  @OptionalField()
  @IsString()
  @MinLength(1)
  ref_type?: string;

  @ApiPropertyOptional({ minLength: 1, description: 'with ref_type' })
  @OptionalField()
  @IsString()
  @MinLength(1)
  ref_target_id?: string;

  @ApiPropertyOptional({
    description: '`GET /resources` only: resources of this kind (400 HYPERFLEET-VAL-000 for a kind never configured); empty: every kind',
  })
  @OptionalField()
  @IsString()
  kind?: string;
}
