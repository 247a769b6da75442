/**
 * Errors of a list's `search` parameter (hyperfleet-api `docs/search.md`). The API maps them to 400 problem details:
 * both are HyperFleet's `BadRequest`, `HYPERFLEET-VAL-005`: `SearchSyntaxError` for a search that does not
 * parse (or is too long), `SearchFieldError` for an unknown field, or a field used with an operator or
 * value it does not take.
 */
export class SearchSyntaxError extends Error {
  /** @param column 1-based column in the search text, when known. */
  constructor(
    message: string,
    readonly search: string,
    readonly column?: number,
  ) {
    super(message);
    this.name = 'SearchSyntaxError';
  }
}

export class SearchFieldError extends Error {
  constructor(
    message: string,
    readonly field: string,
    readonly search: string,
  ) {
    super(message);
    this.name = 'SearchFieldError';
  }
}
