/**
 * The verified caller's audit fields besides its identity: the token's issuer and subject (null
 * when no token was verified) and the caller's tenant (null while tenants are off). Stored in every event's
 * metadata as `caller_issuer`, `caller_subject`, `tenant`.
 */
export interface CallerAudit {
  readonly issuer: string | null;
  readonly subject: string | null;
  readonly tenant: Readonly<Record<string, string>> | null;
}

/** What every command carries besides its payload: caller identity, trace id, optional If-Match revision. */
export interface CommandContext {
  readonly caller: string;
  readonly audit?: CallerAudit;
  readonly traceId?: string;
  readonly expectedRevision?: number;
}
