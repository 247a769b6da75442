/**
 * The ordered record of every HTTP request the local API server answered, for tests that assert
 * what a client did and in which order (e.g. children deleted before parents).
 */
import { appendBounded } from './bounded-history.js';

export interface RecordedKubeRequest {
  /** 1-based, in the order requests took effect on the store. */
  readonly seq: number;
  /** RFC 3339 UTC with milliseconds. */
  readonly time: string;
  readonly method: string;
  /** URL path without the query string. */
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  /** Kubernetes verb: get, list, create, update, patch, delete, deletecollection, watch; absent for discovery. */
  readonly verb?: string;
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly namespace?: string;
  readonly name?: string;
  readonly subresource?: string;
  /** HTTP status answered; 0 when an injected fault reset the connection instead. */
  readonly status: number;
  /** Set when an injected fault shaped the answer. */
  readonly fault?: 'status' | 'reset' | 'delay';
  /** The request's W3C `traceparent` header, when it sent one. */
  readonly traceparent?: string;
}

export interface RequestFilter {
  readonly method?: string;
  readonly verb?: string;
  readonly kind?: string;
  readonly name?: string;
  readonly namespace?: string;
}

export class RequestLog {
  private readonly entries: RecordedKubeRequest[] = [];
  private nextSeq = 1;

  /** @param limit entries kept (oldest dropped, bounded-history.ts); default unlimited. */
  constructor(
    private readonly now: () => Date,
    private readonly limit = Number.POSITIVE_INFINITY,
  ) {}

  get requests(): readonly RecordedKubeRequest[] {
    return this.entries;
  }

  record(entry: Omit<RecordedKubeRequest, 'seq' | 'time'>): RecordedKubeRequest {
    const recorded = { seq: this.nextSeq++, time: this.now().toISOString(), ...entry };
    appendBounded(this.entries, recorded, this.limit);
    return recorded;
  }

  /** Requests whose fields equal every given filter field (method compared case-insensitively). */
  matching(filter: RequestFilter): RecordedKubeRequest[] {
    return this.entries.filter(
      (r) =>
        (filter.method === undefined || r.method.toUpperCase() === filter.method.toUpperCase()) &&
        (filter.verb === undefined || r.verb === filter.verb) &&
        (filter.kind === undefined || r.kind === filter.kind) &&
        (filter.name === undefined || r.name === filter.name) &&
        (filter.namespace === undefined || r.namespace === filter.namespace),
    );
  }

  /** Forgets recorded requests; `seq` keeps counting. */
  clear(): void {
    this.entries.length = 0;
  }
}
