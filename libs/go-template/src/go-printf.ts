/**
 * Go's `fmt.Sprintf` format-string handling (`doPrintf`): flags, width, precision, `*`, `[n]`
 * argument indexes, `%%`, and the `%!v(MISSING)`, `%!v(BADINDEX)`, `%!(NOVERB)`, `%!(EXTRA ...)`
 * markers. Each operand is formatted by go-print.ts.
 */
import { Printer, clearFlags } from './go-print.js';
import { goTypeName, kindOf, numberValue } from './values.js';

function parsenum(s: string, start: number, end: number): { num: number; isnum: boolean; next: number } {
  if (start >= end) return { num: 0, isnum: false, next: end };
  let num = 0;
  let isnum = false;
  let i = start;
  for (; i < end && s[i] !== undefined && (s[i] as string) >= '0' && (s[i] as string) <= '9'; i++) {
    if (num > 1e6) return { num: 0, isnum: false, next: end };
    num = num * 10 + Number(s[i]);
    isnum = true;
  }
  return { num, isnum, next: i };
}

function intFromArg(a: readonly unknown[], argNum: number): { num: number; isInt: boolean; next: number } {
  if (argNum >= a.length) return { num: 0, isInt: false, next: argNum };
  const v = a[argNum];
  const k = kindOf(v);
  let num = 0;
  let isInt = false;
  if (k === 'int' || k === 'uint') {
    num = numberValue(v);
    isInt = true;
  }
  if (Math.abs(num) > 1e6) {
    num = 0;
    isInt = false;
  }
  return { num, isInt, next: argNum + 1 };
}

/** `fmt.Sprintf`. */
export function sprintf(format: string, a: readonly unknown[]): string {
  const p = new Printer();
  const end = format.length;
  let argNum = 0;
  let afterIndex = false;
  let reordered = false;
  let goodArgNum = true;

  const argNumber = (i: number): { argNum: number; i: number; found: boolean } => {
    if (i >= end || format[i] !== '[') return { argNum, i, found: false };
    reordered = true;
    const close = format.indexOf(']', i + 1);
    if (end - i < 3 || close < 0) {
      goodArgNum = false;
      return { argNum, i: i + 1, found: false };
    }
    const { num, isnum, next } = parsenum(format, i + 1, close);
    if (!isnum || next !== close) {
      goodArgNum = false;
      return { argNum, i: close + 1, found: false };
    }
    const index = num - 1;
    if (index >= 0 && index < a.length) return { argNum: index, i: close + 1, found: true };
    goodArgNum = false;
    return { argNum, i: close + 1, found: true };
  };

  formatLoop: for (let i = 0; i < end;) {
    goodArgNum = true;
    const lasti = i;
    while (i < end && format[i] !== '%') i++;
    if (i > lasti) p.buf += format.slice(lasti, i);
    if (i >= end) break;
    i++;
    p.f = clearFlags();
    simple: for (; i < end; i++) {
      const c = format[i] as string;
      switch (c) {
        case '#':
          p.f.sharp = true;
          break;
        case '0':
          p.f.zero = !p.f.minus;
          break;
        case '+':
          p.f.plus = true;
          break;
        case '-':
          p.f.minus = true;
          p.f.zero = false;
          break;
        case ' ':
          p.f.space = true;
          break;
        default:
          if (c >= 'a' && c <= 'z' && argNum < a.length) {
            if (c === 'v') {
              p.f.sharpV = p.f.sharp;
              p.f.sharp = false;
              p.f.plusV = p.f.plus;
              p.f.plus = false;
            }
            p.printArg(a[argNum], c);
            argNum++;
            i++;
            continue formatLoop;
          }
          break simple;
      }
    }

    ({ argNum, i, found: afterIndex } = argNumber(i));

    if (i < end && format[i] === '*') {
      i++;
      const w = intFromArg(a, argNum);
      [p.f.wid, p.f.widPresent, argNum] = [w.num, w.isInt, w.next];
      if (!p.f.widPresent) p.buf += '%!(BADWIDTH)';
      if (p.f.wid < 0) {
        p.f.wid = -p.f.wid;
        p.f.minus = true;
        p.f.zero = false;
      }
      afterIndex = false;
    } else {
      const w = parsenum(format, i, end);
      [p.f.wid, p.f.widPresent, i] = [w.num, w.isnum, w.next];
      if (afterIndex && p.f.widPresent) goodArgNum = false;
    }

    if (i + 1 < end && format[i] === '.') {
      i++;
      if (afterIndex) goodArgNum = false;
      ({ argNum, i, found: afterIndex } = argNumber(i));
      if (i < end && format[i] === '*') {
        i++;
        const w = intFromArg(a, argNum);
        [p.f.prec, p.f.precPresent, argNum] = [w.num, w.isInt, w.next];
        if (p.f.prec < 0) {
          p.f.prec = 0;
          p.f.precPresent = false;
        }
        if (!p.f.precPresent) p.buf += '%!(BADPREC)';
        afterIndex = false;
      } else {
        const pr = parsenum(format, i, end);
        [p.f.prec, p.f.precPresent, i] = [pr.num, pr.isnum, pr.next];
        if (!p.f.precPresent) {
          p.f.prec = 0;
          p.f.precPresent = true;
        }
      }
    }

    if (!afterIndex) ({ argNum, i, found: afterIndex } = argNumber(i));

    if (i >= end) {
      p.buf += '%!(NOVERB)';
      break;
    }
    const verb = String.fromCodePoint(format.codePointAt(i) as number);
    i += verb.length;

    if (verb === '%') {
      p.buf += '%';
    } else if (!goodArgNum) {
      p.buf += `%!${verb}(BADINDEX)`;
    } else if (argNum >= a.length) {
      p.buf += `%!${verb}(MISSING)`;
    } else {
      if (verb === 'v') {
        p.f.sharpV = p.f.sharp;
        p.f.sharp = false;
        p.f.plusV = p.f.plus;
        p.f.plus = false;
      }
      p.printArg(a[argNum], verb);
      argNum++;
    }
  }

  if (!reordered && argNum < a.length) {
    p.f = clearFlags();
    p.buf += '%!(EXTRA ';
    a.slice(argNum).forEach((arg, i) => {
      if (i > 0) p.buf += ', ';
      if (arg === null || arg === undefined) {
        p.buf += '<nil>';
      } else {
        p.buf += `${goTypeName(arg)}=`;
        p.printArg(arg, 'v');
      }
    });
    p.buf += ')';
  }
  return p.buf;
}
