/**
 * Our engine against real Go: every case of testdata/golden.json was rendered by Go's text/template
 * with HyperFleet's options and FuncMap (testdata/oracle/main.go). Output must match byte for byte;
 * errors must be of the same phase with Go's reason, line, column and context.
 *
 * Regenerate the golden file after editing testdata/cases.json (needs Go, not needed to run this spec):
 *   libs/go-template/src/testdata/oracle/regenerate.sh
 */
import { readFileSync } from 'node:fs';
import { TemplateExecError, TemplateSyntaxError, compileTemplate, goFloat64, goInt64 } from './index.js';

interface GoldenCase {
  name: string;
  template: string;
  data?: unknown;
  output?: string;
  error?: {
    phase: 'parse' | 'exec';
    reason: string;
    line: number;
    /** 0-based byte column (exec errors). */
    column?: number;
    context?: string;
  };
}

const golden = JSON.parse(readFileSync(new URL('./testdata/golden.json', import.meta.url), 'utf8')) as {
  now: string;
  cases: GoldenCase[];
};
const now = (): Date => new Date(golden.now);

/** cases.json data: `{"$float64": n}`, `{"$int64": n}` mark Go-typed numbers, `{"$time": s}` a time. */
function decode(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(decode);
  if (typeof v === 'object' && v !== null) {
    const entries = Object.entries(v);
    if (entries.length === 1 && entries[0]?.[0] === '$float64') return goFloat64(entries[0][1] as number);
    if (entries.length === 1 && entries[0]?.[0] === '$int64') return goInt64(entries[0][1] as number);
    if (entries.length === 1 && entries[0]?.[0] === '$time') return new Date(entries[0][1] as string);
    return Object.fromEntries(entries.map(([k, x]) => [k, decode(x)]));
  }
  return v;
}

function attempt(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  return undefined;
}

describe('Go text/template golden cases (HyperFleet FuncMap, missingkey=error)', () => {
  it('has enough cases to mean something', () => {
    expect(golden.cases.length).toBeGreaterThanOrEqual(60);
  });

  const outputs = golden.cases.filter((c) => c.output !== undefined);
  const parseErrors = golden.cases.filter((c) => c.error?.phase === 'parse');
  const execErrors = golden.cases.filter((c) => c.error?.phase === 'exec');

  test.each(outputs.map((c) => [c.name, c] as const))('renders %s', (_name, c) => {
    const data = decode(c.data ?? {}) as Record<string, unknown>;
    expect(compileTemplate(c.template).render(data, { now })).toBe(c.output);
  });

  test.each(parseErrors.map((c) => [c.name, c] as const))('rejects %s', (_name, c) => {
    const err = attempt(() => compileTemplate(c.template));
    expect(err).toBeInstanceOf(TemplateSyntaxError);
    const e = err as TemplateSyntaxError;
    expect({ reason: e.reason, line: e.line }).toEqual({ reason: c.error?.reason, line: c.error?.line });
  });

  test.each(execErrors.map((c) => [c.name, c] as const))('fails executing %s', (_name, c) => {
    const data = decode(c.data ?? {}) as Record<string, unknown>;
    const tmpl = compileTemplate(c.template);
    const err = attempt(() => tmpl.render(data, { now }));
    expect(err).toBeInstanceOf(TemplateExecError);
    const e = err as TemplateExecError;
    expect({ reason: e.reason, line: e.line, column: e.column, context: e.context }).toEqual({
      reason: c.error?.reason,
      line: c.error?.line,
      column: (c.error?.column ?? 0) + 1, // Go prints 0-based byte columns; ours are 1-based
      context: c.error?.context,
    });
  });
});
