/**
 * A read that keeps the last data it got. A failed read (no answer within the timeout, connection refused,
 * 503) leaves the data and the time it was fetched in place and records since when reads fail, so a page
 * can show the last known list with its age instead of an empty one that reads as "all clear".
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, EngineUnreachable } from './api';
import type { ReadFailure, ReadFailureKind, ReadStatus } from './outage';

/** How soon a failed (or unwatched) read is tried again, in ms, unless a 503 asks for longer with Retry-After. */
export const RETRY_MS = 5_000;
/**
 * How often a healthy read is repeated anyway, in ms. Live events only tell of new events, not of an outage
 * (a job queue that stopped answering sends none), so without this an idle page would go on vouching for a
 * state it last checked long ago.
 */
export const REFRESH_MS = 15_000;
/** The longest a Retry-After may postpone the next read, in ms: the banner should not wait minutes to clear. */
const MAX_RETRY_MS = 30_000;

export interface LastKnown<T> {
  /** The data of the latest successful read (of the current `read`); undefined until one succeeded. */
  readonly data?: T;
  readonly status: ReadStatus;
  /** Reads again now; an unfinished earlier read is cancelled. */
  readonly reload: () => void;
}

/** A failed read in the banner's terms: what kind of failure, in words. */
export function classifyFailure(error: unknown): { kind: ReadFailureKind; detail: string } {
  if (error instanceof EngineUnreachable) return { kind: 'unreachable', detail: error.message };
  if (error instanceof ApiError) {
    const what = `${error.problem.status} ${error.problem.title}`;
    return error.problem.status >= 500
      ? { kind: 'unavailable', detail: what }
      : { kind: 'refused', detail: `${what}: ${error.problem.detail}` };
  }
  return { kind: 'unavailable', detail: String((error as Error)?.message ?? error) };
}

/**
 * Runs `read` now, whenever `read` changes (memoize it on its inputs: a new filter is a new read and starts
 * without data), on `reload()`, every `RETRY_MS` while the latest read failed or `poll` is true (e.g. while
 * live updates are disconnected), and every `REFRESH_MS` otherwise. `read` gets an AbortSignal that fires
 * when a newer read replaces it.
 */
export function useLastKnown<T>(read: (signal: AbortSignal) => Promise<T>, poll: boolean): LastKnown<T> {
  const [state, setState] = useState<{ data?: T; status: ReadStatus }>({ status: {} });
  const [attempt, setAttempt] = useState(0);
  const [retryAfterMs, setRetryAfterMs] = useState(RETRY_MS);
  const current = useRef<AbortController | undefined>(undefined);
  const reload = useCallback(() => setAttempt((n) => n + 1), []);

  // A different read (other filters) must not show the previous read's rows as its own.
  useEffect(() => setState((s) => ({ status: s.status.failure ? { failure: s.status.failure } : {} })), [read]);

  useEffect(() => {
    current.current?.abort();
    const controller = new AbortController();
    current.current = controller;
    read(controller.signal).then(
      (data) => {
        if (controller.signal.aborted) return;
        setState({ data, status: { fetchedAt: Date.now() } });
        setRetryAfterMs(RETRY_MS);
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        const failure: ReadFailure = { since: Date.now(), ...classifyFailure(error) };
        setState((s) => ({ ...s, status: { ...s.status, failure: { ...failure, since: s.status.failure?.since ?? failure.since } } }));
        const asked = error instanceof ApiError ? error.problem.retryAfterSeconds : undefined;
        setRetryAfterMs(asked === undefined ? RETRY_MS : Math.min(MAX_RETRY_MS, Math.max(RETRY_MS, asked * 1000)));
      },
    );
    return () => controller.abort();
  }, [read, attempt]);

  const failing = state.status.failure !== undefined;
  useEffect(() => {
    // Rescheduled after every outcome (`state`), so the next read waits for the previous one to finish.
    const timer = window.setTimeout(reload, failing ? retryAfterMs : poll ? RETRY_MS : REFRESH_MS);
    return () => window.clearTimeout(timer);
  }, [failing, poll, retryAfterMs, reload, state]);

  return { ...state, reload };
}
