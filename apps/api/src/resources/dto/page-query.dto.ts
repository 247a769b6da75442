import { IntegerQueryParam } from './integer-query-param.js';
import { OptionalField } from './optional-field.js';

/** Events per page of a history when `size` is absent. */
export const HISTORY_PAGE_SIZE = 100;

/** Paging of `GET /resources/{id}/events`: `page` ≥ 1 (default 1), `size` 1..1000 (default 100). */
export class PageQueryDto {
  @OptionalField()
  @IntegerQueryParam({ min: 1, max: 100000, default: 1 })
  page?: number;

  @OptionalField()
  @IntegerQueryParam({ min: 1, max: 1000, default: HISTORY_PAGE_SIZE })
  size?: number;
}
