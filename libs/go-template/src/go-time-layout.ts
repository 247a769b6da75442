/**
 * Go's `time.Time.Format` for a UTC time: the reference-time layout language (`2006 01 02 15 04 05
 * Jan January Mon Monday MST Z07:00 -0700 PM .000 .999 _2 002 ...`), ported from Go's
 * `nextStdChunk`. Times here are always UTC (the zone name prints `UTC`, `Z07:00` prints `Z`) with
 * millisecond precision (JavaScript `Date`).
 */

const LONG_MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const LONG_DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

type Std =
  | { kind: 'year' | 'longYear' | 'month' | 'longMonth' | 'numMonth' | 'zeroMonth' | 'weekDay' | 'longWeekDay' }
  | { kind: 'day' | 'underDay' | 'zeroDay' | 'underYearDay' | 'zeroYearDay' }
  | { kind: 'hour' | 'hour12' | 'zeroHour12' | 'minute' | 'zeroMinute' | 'second' | 'zeroSecond' | 'PM' | 'pm' }
  | { kind: 'tz' }
  /** Numeric zone: `iso` prints `Z` for UTC; `colon`, `seconds`, `short` select the shape. */
  | { kind: 'numTZ'; iso: boolean; colon: boolean; seconds: boolean; short: boolean }
  | { kind: 'frac'; digits: number; trim: boolean; separator: string };

interface Chunk {
  prefix: string;
  std: Std | null;
  suffix: string;
}

const ZERO_STD: readonly Std['kind'][] = ['zeroMonth', 'zeroDay', 'zeroHour12', 'zeroMinute', 'zeroSecond', 'year'];

const NUMERIC_ZONES: ReadonlyArray<[string, Omit<Extract<Std, { kind: 'numTZ' }>, 'kind' | 'iso'>]> = [
  ['070000', { colon: false, seconds: true, short: false }],
  ['07:00:00', { colon: true, seconds: true, short: false }],
  ['0700', { colon: false, seconds: false, short: false }],
  ['07:00', { colon: true, seconds: false, short: false }],
  ['07', { colon: false, seconds: false, short: true }],
];

function startsWithLowerCase(s: string): boolean {
  const c = s[0];
  return c !== undefined && c >= 'a' && c <= 'z';
}
function isDigitAt(s: string, i: number): boolean {
  const c = s[i];
  return c !== undefined && c >= '0' && c <= '9';
}

function nextStdChunk(layout: string): Chunk {
  const chunk = (i: number, std: Std, len: number): Chunk => ({
    prefix: layout.slice(0, i),
    std,
    suffix: layout.slice(i + len),
  });
  for (let i = 0; i < layout.length; i++) {
    const rest = layout.slice(i);
    switch (layout[i]) {
      case 'J':
        if (rest.startsWith('Jan')) {
          if (rest.startsWith('January')) return chunk(i, { kind: 'longMonth' }, 7);
          if (!startsWithLowerCase(rest.slice(3))) return chunk(i, { kind: 'month' }, 3);
        }
        break;
      case 'M':
        if (rest.startsWith('Mon')) {
          if (rest.startsWith('Monday')) return chunk(i, { kind: 'longWeekDay' }, 6);
          if (!startsWithLowerCase(rest.slice(3))) return chunk(i, { kind: 'weekDay' }, 3);
        }
        if (rest.startsWith('MST')) return chunk(i, { kind: 'tz' }, 3);
        break;
      case '0': {
        const d = rest[1];
        if (d !== undefined && d >= '1' && d <= '6') {
          return chunk(i, { kind: ZERO_STD[Number(d) - 1] } as Std, 2);
        }
        if (rest.startsWith('002')) return chunk(i, { kind: 'zeroYearDay' }, 3);
        break;
      }
      case '1':
        if (rest[1] === '5') return chunk(i, { kind: 'hour' }, 2);
        return chunk(i, { kind: 'numMonth' }, 1);
      case '2':
        if (rest.startsWith('2006')) return chunk(i, { kind: 'longYear' }, 4);
        return chunk(i, { kind: 'day' }, 1);
      case '_':
        if (rest[1] === '2') {
          // "_2006" is a literal "_" followed by the long year.
          if (rest.startsWith('_2006')) return { prefix: layout.slice(0, i + 1), std: { kind: 'longYear' }, suffix: layout.slice(i + 5) };
          return chunk(i, { kind: 'underDay' }, 2);
        }
        if (rest.startsWith('__2')) return chunk(i, { kind: 'underYearDay' }, 3);
        break;
      case '3':
        return chunk(i, { kind: 'hour12' }, 1);
      case '4':
        return chunk(i, { kind: 'minute' }, 1);
      case '5':
        return chunk(i, { kind: 'second' }, 1);
      case 'P':
        if (rest[1] === 'M') return chunk(i, { kind: 'PM' }, 2);
        break;
      case 'p':
        if (rest[1] === 'm') return chunk(i, { kind: 'pm' }, 2);
        break;
      case '-':
      case 'Z':
        for (const [shape, flags] of NUMERIC_ZONES) {
          if (rest.startsWith(shape, 1)) {
            return chunk(i, { kind: 'numTZ', iso: layout[i] === 'Z', ...flags }, shape.length + 1);
          }
        }
        break;
      case '.':
      case ',': {
        const ch = rest[1];
        if (ch === '0' || ch === '9') {
          let j = i + 1;
          while (layout[j] === ch) j++;
          if (!isDigitAt(layout, j)) {
            return {
              prefix: layout.slice(0, i),
              std: { kind: 'frac', digits: j - (i + 1), trim: ch === '9', separator: layout[i] as string },
              suffix: layout.slice(j),
            };
          }
        }
        break;
      }
    }
  }
  return { prefix: layout, std: null, suffix: '' };
}

function pad(n: number, width: number): string {
  const s = String(Math.abs(n)).padStart(width, '0');
  return n < 0 ? `-${s}` : s;
}

/** Formats the UTC instant `epochMs` with a Go layout string. */
export function formatGoTime(epochMs: number, layout: string): string {
  const d = new Date(epochMs);
  const year = d.getUTCFullYear();
  const month = d.getUTCMonth(); // 0-based
  const day = d.getUTCDate();
  const hour = d.getUTCHours();
  const yday = Math.floor((Date.UTC(year, month, day) - Date.UTC(year, 0, 1)) / 86_400_000) + 1;
  const nanos = d.getUTCMilliseconds() * 1_000_000;
  let out = '';
  for (;;) {
    const { prefix, std, suffix } = nextStdChunk(layout);
    out += prefix;
    if (!std) break;
    layout = suffix;
    switch (std.kind) {
      case 'year':
        out += pad(Math.abs(year) % 100, 2);
        break;
      case 'longYear':
        out += pad(year, 4);
        break;
      case 'month':
        out += (LONG_MONTHS[month] as string).slice(0, 3);
        break;
      case 'longMonth':
        out += LONG_MONTHS[month];
        break;
      case 'numMonth':
        out += String(month + 1);
        break;
      case 'zeroMonth':
        out += pad(month + 1, 2);
        break;
      case 'weekDay':
        out += (LONG_DAYS[d.getUTCDay()] as string).slice(0, 3);
        break;
      case 'longWeekDay':
        out += LONG_DAYS[d.getUTCDay()];
        break;
      case 'day':
        out += String(day);
        break;
      case 'underDay':
        out += day < 10 ? ` ${day}` : String(day);
        break;
      case 'zeroDay':
        out += pad(day, 2);
        break;
      case 'underYearDay':
        out += String(yday).padStart(3, ' ');
        break;
      case 'zeroYearDay':
        out += pad(yday, 3);
        break;
      case 'hour':
        out += pad(hour, 2);
        break;
      case 'hour12':
        out += String(hour % 12 === 0 ? 12 : hour % 12);
        break;
      case 'zeroHour12':
        out += pad(hour % 12 === 0 ? 12 : hour % 12, 2);
        break;
      case 'minute':
        out += String(d.getUTCMinutes());
        break;
      case 'zeroMinute':
        out += pad(d.getUTCMinutes(), 2);
        break;
      case 'second':
        out += String(d.getUTCSeconds());
        break;
      case 'zeroSecond':
        out += pad(d.getUTCSeconds(), 2);
        break;
      case 'PM':
        out += hour >= 12 ? 'PM' : 'AM';
        break;
      case 'pm':
        out += hour >= 12 ? 'pm' : 'am';
        break;
      case 'tz':
        out += 'UTC';
        break;
      case 'numTZ':
        // The offset is always zero here.
        if (std.iso) {
          out += 'Z';
          break;
        }
        out += `+00${std.short ? '' : `${std.colon ? ':' : ''}00`}${std.seconds ? `${std.colon ? ':' : ''}00` : ''}`;
        break;
      case 'frac': {
        let digits = String(nanos).padStart(9, '0').slice(0, Math.min(std.digits, 9));
        if (std.trim) {
          digits = digits.replace(/0+$/, '');
          if (digits === '') break;
        }
        out += std.separator + digits;
        break;
      }
    }
  }
  return out;
}
