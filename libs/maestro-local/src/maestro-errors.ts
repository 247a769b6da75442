/** A request the server refuses; rendered as Maestro's `Error` body with this HTTP status. */
export class MaestroError extends Error {
  override readonly name = 'MaestroError';

  constructor(
    readonly status: number,
    readonly reason: string,
  ) {
    super(reason);
  }
}

/** Maestro's openapi `Error`: `{kind, id, href, code, reason}`. */
export function errorBody(status: number, reason: string): Record<string, unknown> {
  return { kind: 'Error', id: String(status), href: `/api/maestro/v1/errors/${status}`, code: `maestro-${status}`, reason };
}
