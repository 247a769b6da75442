const UNIT_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * Parses a Go `time.Duration` string (`"10s"`, `"1m30s"`, `"500ms"`) into milliseconds, the
 * format HyperFleet configs use for `timeout`, `base_delay`, `max_delay`.
 * Hand-rolled: ten lines; npm duration parsers accept other grammars (`"1 day"`), not Go's.
 * @returns milliseconds, or `undefined` when the text is not a valid Go duration.
 */
export function parseGoDuration(text: string): number | undefined {
  if (text === '0') return 0;
  const part = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/y;
  let total = 0;
  let index = 0;
  while (index < text.length) {
    part.lastIndex = index;
    const match = part.exec(text);
    if (!match) return undefined;
    total += Number(match[1]) * (UNIT_MS[match[2] as string] as number);
    index = part.lastIndex;
  }
  return index === 0 ? undefined : total;
}
