/**
 * Go's `strconv.FormatFloat(v, fmt, prec, 64)` for fmt in `e E f g G`: shortest round-trip digits
 * when `prec < 0`, otherwise exact decimal rounding with round-half-even on exact ties (as Go's
 * `decimal.Round`), which is where JavaScript's `toFixed` differs (`0.125` → Go `0.12`).
 */

/** Decimal digits `d` (no leading/trailing zeros; empty for 0) with the point after `dp` digits. */
interface Digits {
  d: string;
  dp: number;
}

function trimZeros(d: string, dp: number): Digits {
  let start = 0;
  while (start < d.length && d[start] === '0') start++;
  let end = d.length;
  while (end > start && d[end - 1] === '0') end--;
  if (start === end) return { d: '', dp: 0 };
  return { d: d.slice(start, end), dp: dp - start };
}

/** Shortest digits that read back to `x` (x finite, >= 0). */
function shortestDigits(x: number): Digits {
  if (x === 0) return { d: '', dp: 0 };
  const [mant = '', exp = '0'] = x.toExponential().split('e');
  return trimZeros(mant.replace('.', ''), Number(exp) + 1);
}

/** The exact decimal expansion of `x` (finite, >= 0). */
function exactDigits(x: number): Digits {
  if (x === 0) return { d: '', dp: 0 };
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, x);
  const hi = buf.getUint32(0);
  const lo = buf.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let e: number;
  if (biased === 0) {
    e = -1074;
  } else {
    mant |= 1n << 52n;
    e = biased - 1075;
  }
  if (e >= 0) {
    const s = (mant << BigInt(e)).toString();
    return trimZeros(s, s.length);
  }
  const s = (mant * 5n ** BigInt(-e)).toString();
  return trimZeros(s, s.length + e);
}

/** Go's `decimal.Round(nd)`: keep `nd` digits, half-even on exact ties. */
function round(a: Digits, nd: number): Digits {
  if (nd < 0 || nd >= a.d.length) return a;
  const next = a.d[nd] as string;
  let up: boolean;
  if (next === '5' && nd + 1 === a.d.length) {
    up = nd > 0 && Number(a.d[nd - 1]) % 2 === 1;
  } else {
    up = next >= '5';
  }
  if (!up) return trimZeros(a.d.slice(0, nd), a.dp);
  // Round up: increment the kept digits.
  const kept = a.d.slice(0, nd).split('').map(Number);
  let i = kept.length - 1;
  while (i >= 0 && kept[i] === 9) {
    kept[i] = 0;
    i--;
  }
  if (i < 0) return { d: '1', dp: a.dp + 1 };
  kept[i] = (kept[i] as number) + 1;
  return trimZeros(kept.join(''), a.dp);
}

function fmtE(neg: boolean, d: Digits, prec: number, e: string): string {
  let out = neg ? '-' : '';
  out += d.d.length > 0 ? d.d[0] : '0';
  if (prec > 0) {
    out += '.';
    const frac = d.d.slice(1, prec + 1);
    out += frac + '0'.repeat(prec - frac.length);
  }
  let exp = d.d.length === 0 ? 0 : d.dp - 1;
  let sign = '+';
  if (exp < 0) {
    sign = '-';
    exp = -exp;
  }
  return `${out}${e}${sign}${exp < 10 ? `0${exp}` : String(exp)}`;
}

function fmtF(neg: boolean, d: Digits, prec: number): string {
  let out = neg ? '-' : '';
  if (d.dp > 0) {
    const intPart = d.d.slice(0, d.dp);
    out += intPart + '0'.repeat(d.dp - intPart.length);
  } else {
    out += '0';
  }
  if (prec > 0) {
    out += '.';
    for (let i = 1; i <= prec; i++) {
      const j = d.dp + i - 1;
      out += j >= 0 && j < d.d.length ? d.d[j] : '0';
    }
  }
  return out;
}

export type FloatFormat = 'e' | 'E' | 'f' | 'g' | 'G';

export function formatFloat(v: number, fmt: FloatFormat, prec: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  const neg = v < 0 || Object.is(v, -0);
  const x = Math.abs(v);
  const shortest = prec < 0;
  let digs: Digits;
  if (shortest) {
    digs = shortestDigits(x);
    if (fmt === 'e' || fmt === 'E') prec = Math.max(digs.d.length - 1, 0);
    else if (fmt === 'f') prec = Math.max(digs.d.length - digs.dp, 0);
    else prec = digs.d.length;
  } else {
    const exact = exactDigits(x);
    if (fmt === 'e' || fmt === 'E') digs = round(exact, prec + 1);
    else if (fmt === 'f') digs = round(exact, exact.dp + prec);
    else {
      if (prec === 0) prec = 1;
      digs = round(exact, prec);
    }
  }
  switch (fmt) {
    case 'e':
    case 'E':
      return fmtE(neg, digs, prec, fmt);
    case 'f':
      return fmtF(neg, digs, prec);
    default: {
      let eprec = prec;
      if (eprec > digs.d.length && digs.d.length >= digs.dp) eprec = digs.d.length;
      if (shortest) eprec = 6;
      const exp = digs.dp - 1;
      if (exp < -4 || exp >= eprec) {
        if (prec > digs.d.length) prec = digs.d.length;
        return fmtE(neg, digs, prec - 1, fmt === 'g' ? 'e' : 'E');
      }
      if (prec > digs.dp) prec = digs.d.length;
      return fmtF(neg, digs, Math.max(prec - digs.dp, 0));
    }
  }
}
