/** One HyperFleet API request a simulated run made, and what answered it. */
export interface ApiExchange {
  readonly method: string;
  /** Absolute URL the request resolved to. */
  readonly url: string;
  /** Parsed JSON when it parses, else the text. */
  readonly requestBody?: unknown;
  readonly status: number;
  readonly responseBody?: unknown;
  /** `recorded` (dry-run file), `default` (no match: 200 `{}`), `live` (sent), `withheld` (a write a plan does not send). */
  readonly answeredBy: 'recorded' | 'default' | 'live' | 'withheld';
}

export function parseMaybeJson(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}
