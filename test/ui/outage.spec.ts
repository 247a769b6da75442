/**
 * The UI states an absence ("No deletion is pending.", "No blockers.") only when its data is known, and
 * otherwise names what it cannot vouch for, with the time it began: an outage must never read as all clear.
 */
import { LIVE_GRACE_MS, isKnown, isLiveDisconnected, outageNotices, type OutageInputs } from '../../apps/ui/src/outage.js';

const at = (hhmmss: string) => Date.parse(`2026-12-03T${hhmmss}Z`);
const live = { connected: true, since: at('06:00:00') };

describe('outage notices and what the stuck page may claim', () => {
  it('a successful read with the job queue available and the stream live: known, no notice', () => {
    const inputs: OutageInputs = { read: { fetchedAt: at('06:40:55') }, deadLetters: { status: 'available' }, live };
    expect(isKnown(inputs)).toBe(true);
    expect(outageNotices(inputs, at('06:41:00'))).toEqual([]);
  });

  it('before any read answered: not known (a page shows "Loading…", never the all-clear)', () => {
    expect(isKnown({ read: {} })).toBe(false);
  });

  it('a failed read after a successful one: unknown, "engine unreachable since …; showing data from …"', () => {
    const inputs: OutageInputs = {
      read: { fetchedAt: at('06:40:55'), failure: { since: at('06:41:02'), kind: 'unreachable', detail: 'no answer within 5 s' } },
      deadLetters: { status: 'available' },
      live,
    };
    expect(isKnown(inputs)).toBe(false);
    expect(outageNotices(inputs, at('06:41:10'))).toEqual([
      { kind: 'engine-unreachable', text: 'Engine unreachable since 06:41:02 UTC; showing data from 06:40:55 UTC.' },
    ]);
  });

  it('a 503 before any data: "unavailable" with the status, and says nothing was loaded', () => {
    const inputs: OutageInputs = { read: { failure: { since: at('06:41:02'), kind: 'unavailable', detail: '503 Service Unavailable' } } };
    expect(outageNotices(inputs, at('06:41:03'))).toEqual([
      { kind: 'engine-unreachable', text: 'Engine unavailable (503 Service Unavailable) since 06:41:02 UTC; no data could be loaded yet.' },
    ]);
  });

  it('a 4xx is a refusal, not an outage, but the data is still not known', () => {
    const inputs: OutageInputs = {
      read: { fetchedAt: at('06:40:55'), failure: { since: at('06:41:02'), kind: 'refused', detail: '401 Unauthorized: token expired' } },
    };
    expect(isKnown(inputs)).toBe(false);
    expect(outageNotices(inputs, at('06:41:03')).map((n) => n.kind)).toEqual(['read-failed']);
  });

  it('dead_letters unavailable: the read succeeded, but dead-letter blockers are unknown', () => {
    const inputs: OutageInputs = {
      read: { fetchedAt: at('06:41:05') },
      deadLetters: { status: 'unavailable', reason: 'connect ECONNREFUSED 127.0.0.1:6390', since: '2026-12-03T06:40:58.123Z' },
      live,
    };
    expect(isKnown(inputs)).toBe(false);
    expect(outageNotices(inputs, at('06:41:06'))).toEqual([
      {
        kind: 'queue-unavailable',
        text: 'Job queue unreachable since 06:40:58 UTC; dead-letter blockers unknown (connect ECONNREFUSED 127.0.0.1:6390).',
      },
    ]);
  });

  it('the live stream down: no notice within the grace period, a notice after it (the data itself stays known)', () => {
    const down = { connected: false, since: at('06:41:00') };
    const inputs: OutageInputs = { read: { fetchedAt: at('06:41:00') }, deadLetters: { status: 'available' }, live: down };
    expect(isLiveDisconnected(down, at('06:41:00') + LIVE_GRACE_MS)).toBe(false);
    expect(outageNotices(inputs, at('06:41:00') + LIVE_GRACE_MS)).toEqual([]);
    expect(outageNotices(inputs, at('06:41:00') + LIVE_GRACE_MS + 1_000)).toEqual([
      { kind: 'live-disconnected', text: 'Live updates disconnected since 06:41:00 UTC; the list is re-read every few seconds instead.' },
    ]);
    expect(isKnown(inputs)).toBe(true);
  });

  it('everything at once: the engine notice first, then the job queue, then the stream', () => {
    const inputs: OutageInputs = {
      read: { fetchedAt: at('06:40:55'), failure: { since: at('06:41:02'), kind: 'unreachable', detail: 'refused' } },
      deadLetters: { status: 'unavailable', reason: 'down', since: '2026-12-03T06:40:50Z' },
      live: { connected: false, since: at('06:41:01') },
    };
    expect(outageNotices(inputs, at('06:41:30')).map((n) => n.kind)).toEqual([
      'engine-unreachable',
      'queue-unavailable',
      'live-disconnected',
    ]);
  });
});
