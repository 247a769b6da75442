/** The ordered record of every HTTP request the local Maestro server answered. */
export interface RecordedMaestroRequest {
  readonly seq: number;
  readonly method: string;
  /** URL path without the query string. */
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  /** For CloudEvents: the event type's action (`create_request`, `update_request`, `delete_request`). */
  readonly action?: string;
  readonly status: number;
}
