/**
 * What a page can claim about the engine's state, and the notices it owes the operator when it cannot claim
 * everything. A page may say "No deletion is pending." only when its data is known: the last read succeeded
 * and no part of the answer was unavailable. Otherwise it shows what it last read, with that read's time,
 * and says why the rest is unknown. Times are ms since the epoch. Imports only `format` (with the `.js`
 * extension Node needs) so it runs both in the browser bundle and under Jest.
 */
import { formatClock as clock } from './format.js';

/**
 * `dead_letters` of `GET /api/decom/v1/finalizing`: whether the job queue could be read. While `unavailable`
 * the list comes from the read model alone and its `DeadLettered` blockers are unknown, not absent
 * (`since`: RFC 3339, when the queue was first found unreachable).
 */
export type DeadLetterAvailability =
  { readonly status: 'available' } | { readonly status: 'unavailable'; readonly reason: string; readonly since: string };

/**
 * Why the latest read failed: `unreachable` (no answer: connection refused, network error or timeout),
 * `unavailable` (the engine answered 5xx, e.g. 503 with Retry-After), `refused` (a 4xx: the engine is up but
 * would not answer this read, e.g. a bad filter or a missing token).
 */
export type ReadFailureKind = 'unreachable' | 'unavailable' | 'refused';

export interface ReadFailure {
  /** When the first of the failed reads since the last success happened. */
  readonly since: number;
  readonly kind: ReadFailureKind;
  /** The latest failure in words (the problem's title, or the network error). */
  readonly detail: string;
}

/** The state of a page's reads: the data it shows was fetched at `fetchedAt` (absent: never loaded). */
export interface ReadStatus {
  readonly fetchedAt?: number;
  /** Present while the latest read failed. */
  readonly failure?: ReadFailure;
}

/** The live stream (`/events/stream`): connected or not, since when. */
export interface LiveStatus {
  readonly connected: boolean;
  readonly since: number;
}

export interface OutageInputs {
  readonly read: ReadStatus;
  /** From the latest successful read; absent for reads without the field. */
  readonly deadLetters?: DeadLetterAvailability;
  /** Absent for a page without live updates. */
  readonly live?: LiveStatus;
}

export type OutageNoticeKind = 'engine-unreachable' | 'read-failed' | 'queue-unavailable' | 'live-disconnected';

export interface OutageNotice {
  readonly kind: OutageNoticeKind;
  readonly text: string;
}

/** A stream reconnect takes a moment (and a page load starts disconnected): only a longer gap is worth a notice, in ms. */
export const LIVE_GRACE_MS = 3_000;

/** True when the page may state absences ("No deletion is pending.", "No blockers."): the last read succeeded and nothing in it was unavailable. */
export function isKnown(inputs: OutageInputs): boolean {
  return inputs.read.fetchedAt !== undefined && inputs.read.failure === undefined && inputs.deadLetters?.status !== 'unavailable';
}

/** Whether the live stream has been down longer than `LIVE_GRACE_MS` at `nowMs`. */
export function isLiveDisconnected(live: LiveStatus | undefined, nowMs: number): boolean {
  return live !== undefined && !live.connected && nowMs - live.since > LIVE_GRACE_MS;
}

/**
 * The notices for the outage banner at `nowMs`, most severe first; empty when everything is known and live.
 * Times are formatted `HH:MM:SS UTC`.
 */
export function outageNotices(inputs: OutageInputs, nowMs: number): OutageNotice[] {
  const notices: OutageNotice[] = [];
  const { fetchedAt, failure } = inputs.read;
  const shown = fetchedAt === undefined ? 'no data could be loaded yet' : `showing data from ${clock(fetchedAt)}`;
  if (failure) {
    if (failure.kind === 'refused')
      notices.push({
        kind: 'read-failed',
        text: `The engine refused to answer since ${clock(failure.since)} (${failure.detail}); ${shown}.`,
      });
    else {
      const how = failure.kind === 'unavailable' ? `unavailable (${failure.detail})` : 'unreachable';
      notices.push({ kind: 'engine-unreachable', text: `Engine ${how} since ${clock(failure.since)}; ${shown}.` });
    }
  }
  const deadLetters = inputs.deadLetters;
  if (deadLetters?.status === 'unavailable') {
    const since = Date.parse(deadLetters.since);
    notices.push({
      kind: 'queue-unavailable',
      text: `Job queue unreachable since ${Number.isNaN(since) ? deadLetters.since : clock(since)}; dead-letter blockers unknown (${deadLetters.reason}).`,
    });
  }
  if (isLiveDisconnected(inputs.live, nowMs)) {
    notices.push({
      kind: 'live-disconnected',
      text: `Live updates disconnected since ${clock(inputs.live!.since)}; the list is re-read every few seconds instead.`,
    });
  }
  return notices;
}
