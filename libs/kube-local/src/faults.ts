/**
 * Failure injection for the local API server: matching requests get an error `Status`, a reset
 * connection, or extra latency, for a number of times or until removed.
 */
import type { StatusReason } from './status-errors.js';

/** Which requests a fault applies to; every given field must match, absent fields match anything. */
export interface FaultMatch {
  /** HTTP method, case-insensitive. */
  readonly method?: string;
  /** A RegExp tested against the URL path, or a string the path must contain. */
  readonly pathPattern?: RegExp | string;
  /** Kubernetes verb (`get`, `list`, `watch`, `create`, `update`, `patch`, `delete`, `deletecollection`). */
  readonly verb?: string;
  /** Kind such as `ConfigMap`; discovery requests have none, so a kind filter never hits them. */
  readonly kind?: string;
  readonly namespace?: string;
  readonly name?: string;
}

export type FaultEffect =
  /** Answer with a `Status` of this code instead of processing the request. */
  | { readonly status: number; readonly message?: string; readonly reason?: StatusReason }
  /**
   * Destroy the socket without answering (the client sees ECONNRESET / "socket hang up").
   * With `afterApply`, the request takes effect first: the answer is lost, not the write; a watch
   * starts and sends its first events, then its connection drops.
   */
  | { readonly connection: 'reset'; readonly afterApply?: boolean }
  /** Wait this long, then process the request normally. */
  | { readonly delayMs: number };

export type FaultSpec = FaultMatch &
  FaultEffect & {
    /** How many matching requests to affect; absent = until removed. */
    readonly times?: number;
  };

export interface FaultHandle {
  /** Matching requests affected so far. */
  readonly hits: number;
  /** Stops the fault (no-op if already exhausted or removed). */
  remove(): void;
}

export interface FaultInjector {
  add(spec: FaultSpec): FaultHandle;
  clear(): void;
  /** The faults still in effect, oldest first. */
  readonly active: readonly FaultSpec[];
}

/** What a fault is matched against. */
export interface FaultSubject {
  readonly method: string;
  readonly path: string;
  readonly verb?: string;
  readonly kind?: string;
  readonly namespace?: string;
  readonly name?: string;
}

interface ActiveFault {
  readonly spec: FaultSpec;
  hits: number;
}

function matches(spec: FaultMatch, subject: FaultSubject): boolean {
  if (spec.method !== undefined && spec.method.toUpperCase() !== subject.method.toUpperCase()) return false;
  if (spec.pathPattern !== undefined) {
    const pattern = spec.pathPattern;
    if (typeof pattern === 'string' ? !subject.path.includes(pattern) : !pattern.test(subject.path)) return false;
  }
  return (
    (spec.verb === undefined || spec.verb === subject.verb) &&
    (spec.kind === undefined || spec.kind === subject.kind) &&
    (spec.namespace === undefined || spec.namespace === subject.namespace) &&
    (spec.name === undefined || spec.name === subject.name)
  );
}

export class Faults implements FaultInjector {
  private faults: ActiveFault[] = [];

  get active(): readonly FaultSpec[] {
    return this.faults.map((f) => f.spec);
  }

  add(spec: FaultSpec): FaultHandle {
    if (spec.times !== undefined && (!Number.isInteger(spec.times) || spec.times < 1)) {
      throw new Error(`fault 'times' must be a positive integer, got ${spec.times}`);
    }
    const fault: ActiveFault = { spec, hits: 0 };
    this.faults.push(fault);
    return {
      get hits() {
        return fault.hits;
      },
      remove: () => {
        this.faults = this.faults.filter((f) => f !== fault);
      },
    };
  }

  clear(): void {
    this.faults = [];
  }

  /** The oldest fault matching `subject`, counted as hit (and dropped once its `times` are used up). */
  take(subject: FaultSubject): FaultSpec | undefined {
    const fault = this.faults.find((f) => matches(f.spec, subject));
    if (!fault) return undefined;
    fault.hits++;
    if (fault.spec.times !== undefined && fault.hits >= fault.spec.times) {
      this.faults = this.faults.filter((f) => f !== fault);
    }
    return fault.spec;
  }
}
