/**
 * The exported methods of Go's time.Time that templates may call on a time value (`now.Unix`,
 * `(now).Format "2006"`, `.t.Year`), each with Go's signature so the executor checks arguments.
 * Month and Weekday (typed results) are not provided.
 */
import type { GoFunc } from './funcs.js';
import { goTimeString } from './go-print.js';
import { formatGoTime } from './go-time-layout.js';
import { GoNumber, type GoTime } from './values.js';

/** Methods of time.Time a template can call (`now.Unix`, `(now).Format "2006"`). */
export const TIME_METHODS: Readonly<Record<string, (t: GoTime) => GoFunc>> = {
  Unix: (t) => ({ params: [], call: () => new GoNumber('int64', Math.floor(t.epochMs / 1000)) }),
  UnixMilli: (t) => ({ params: [], call: () => new GoNumber('int64', t.epochMs) }),
  Year: (t) => ({ params: [], call: () => t.toDate().getUTCFullYear() }),
  Day: (t) => ({ params: [], call: () => t.toDate().getUTCDate() }),
  Hour: (t) => ({ params: [], call: () => t.toDate().getUTCHours() }),
  Minute: (t) => ({ params: [], call: () => t.toDate().getUTCMinutes() }),
  Second: (t) => ({ params: [], call: () => t.toDate().getUTCSeconds() }),
  Nanosecond: (t) => ({ params: [], call: () => t.toDate().getUTCMilliseconds() * 1_000_000 }),
  YearDay: (t) => ({ params: [], call: () => Number(formatGoTime(t.epochMs, '002')) }),
  UTC: (t) => ({ params: [], call: () => t }),
  String: (t) => ({ params: [], call: () => goTimeString(t) }),
  Format: (t) => ({ params: ['string'], call: ([layout]) => formatGoTime(t.epochMs, layout as string) }),
};
