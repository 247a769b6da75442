/**
 * Bounded Server-Sent-Events streams (docs/security.md "Connections and streams"): each open stream holds a
 * socket and an event-feed listener for as long as the client likes, so one process admits at most
 * `max_total`, and one caller at most `max_per_caller` of them. Over either cap the stream is refused with
 * 429 `HYPERFLEET-LMT-001` before anything is written, and the caller's other streams are not touched.
 */
import type { StreamLimitsConfig } from '@decom/config';
import { HttpProblem } from '../problem-details/problem.js';

/** Seconds a refused client waits before retrying: streams end when dashboards close, not on a clock. */
const RETRY_AFTER_SECONDS = 30;

export class StreamSlots {
  private readonly open = new Map<string, number>();
  private total = 0;

  constructor(private readonly limits: StreamLimitsConfig) {}

  /**
   * Takes one slot for `caller` (a verified issuer + identity, or `address <ip>` when nothing is verified).
   * @returns the function that gives the slot back (idempotent).
   * @throws HttpProblem 429 when the caller or the process is at its cap.
   */
  take(caller: string): () => void {
    const held = this.open.get(caller) ?? 0;
    if (held >= this.limits.max_per_caller) {
      throw refused(`at most ${this.limits.max_per_caller} open event streams per caller; close one or retry later`);
    }
    if (this.total >= this.limits.max_total)
      throw refused(`this server holds its maximum of ${this.limits.max_total} open event streams; retry later`);
    this.open.set(caller, held + 1);
    this.total += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total -= 1;
      const left = (this.open.get(caller) ?? 1) - 1;
      if (left === 0) this.open.delete(caller);
      else this.open.set(caller, left);
    };
  }

  /** Streams open now, in all and for one caller (for tests and metrics). */
  count(caller?: string): number {
    return caller === undefined ? this.total : (this.open.get(caller) ?? 0);
  }
}

function refused(detail: string): HttpProblem {
  return new HttpProblem(429, 'HYPERFLEET-LMT-001', 'Too Many Requests', 'rate-limit', detail, undefined, undefined, {
    'retry-after': String(RETRY_AFTER_SECONDS),
  });
}
