/** What every command carries besides its payload: caller identity, trace id, optional If-Match revision. */
export interface CommandContext {
  readonly caller: string;
  readonly traceId?: string;
  readonly expectedRevision?: number;
}
