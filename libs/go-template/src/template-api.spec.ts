/**
 * The engine's API beyond Go parity (template.spec.ts checks that): where syntax errors point (Go
 * only reports a line there), `referencedVariables`, strings without `{{`, the injected clock and
 * how JavaScript numbers print.
 */
import { TemplateExecError, TemplateSyntaxError, compileTemplate, goFloat64, goInt64, hasTemplate, renderTemplate } from './index.js';

function attempt(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error('expected an error');
}

const fixedNow = (): Date => new Date('2026-03-07T14:05:09.123Z');

describe('syntax errors point at the offending token (1-based line and column)', () => {
  test.each([
    ['undefined function', '{{ .a | nosuch }}', 'function "nosuch" not defined', 1, 9],
    ['stray {{end}} on line 2', 'ok\n  {{ end }}', 'unexpected {{end}}', 2, 3],
    ['unterminated string', 'x {{ "abc }}', 'unterminated quoted string', 1, 6],
    ['undefined variable', 'a\nb {{ $nope }}', 'undefined variable "$nope"', 2, 6],
    ['non executable pipeline stage', '{{ .a | 3 }}', 'non executable command in pipeline stage 2', 1, 9],
    ['missing {{end}} reported at end of input', '{{ if .a }}x', 'unexpected EOF', 1, 13],
    ['bad character', '{{ .a-b }}', "bad character U+002D '-'", 1, 4],
    ['unsupported {{template}}', '{{ template "x" }}', '{{template}} is not supported', 1, 4],
    ['unsupported {{define}}', '{{ define "x" }}{{ end }}', '{{define}} is not supported', 1, 4],
    ['column counts characters, not bytes', 'héllo {{ nosuch }}', 'function "nosuch" not defined', 1, 10],
  ])('%s', (_name, source, reason, line, column) => {
    const e = attempt(() => compileTemplate(source)) as TemplateSyntaxError;
    expect(e).toBeInstanceOf(TemplateSyntaxError);
    expect(e).toBeInstanceOf(Error);
    expect({ reason: e.reason, line: e.line, column: e.column }).toEqual({ reason, line, column });
    expect(e.message).toBe(`template:${line}:${column}: ${reason}`);
  });
});

describe('missingkey=error', () => {
  it('names the missing key and where it was read', () => {
    const tmpl = compileTemplate('kind: ConfigMap\nname: {{ .clusterId | lower }}\n');
    const e = attempt(() => tmpl.render({ clusterid: 'wrong case' })) as TemplateExecError;
    expect(e).toBeInstanceOf(TemplateExecError);
    expect(e.message).toBe('template:2:10: executing at <.clusterId>: map has no entry for key "clusterId"');
    expect({ line: e.line, column: e.column, context: e.context }).toEqual({ line: 2, column: 10, context: '.clusterId' });
  });

  it('treats a key whose value is undefined as missing, and null as present', () => {
    expect(() => renderTemplate('{{ .a }}', { a: undefined })).toThrow('map has no entry for key "a"');
    expect(renderTemplate('{{ .a }}', { a: null })).toBe('<no value>');
  });
});

describe('referencedVariables', () => {
  it('lists top-level keys read through `.`, in first-use order', () => {
    const tmpl = compileTemplate('/clusters/{{ .clusterId }}/nodepools/{{ .nodepoolId | lower }}/{{ .clusterId }}');
    expect(tmpl.referencedVariables()).toEqual(['clusterId', 'nodepoolId']);
  });

  it('skips fields read where `.` is a with/range value, keeps $.x and else branches', () => {
    const tmpl = compileTemplate(
      '{{ .a.b }}{{ range .items }}{{ .name }}{{ $.c }}{{ end }}' +
        '{{ with .d }}{{ .e }}{{ else }}{{ .f }}{{ end }}' +
        '{{ if .g }}{{ .h }}{{ end }}{{ printf "%s" (index .i "k") }}{{ $x := .j }}{{ $x.k }}',
    );
    expect(tmpl.referencedVariables()).toEqual(['a', 'items', 'c', 'd', 'f', 'g', 'h', 'i', 'j']);
  });
});

describe('renderTemplate and hasTemplate', () => {
  it('returns strings without {{ untouched, without parsing them', () => {
    expect(hasTemplate('plain }} text with $ and %')).toBe(false);
    expect(renderTemplate('plain }} text with $ and %', {})).toBe('plain }} text with $ and %');
  });

  it('renders strings with {{', () => {
    expect(hasTemplate('a {{ .b }}')).toBe(true);
    expect(renderTemplate('a {{ .b }}', { b: 'B' })).toBe('a B');
  });

  it('compiles once and renders many times', () => {
    const tmpl = compileTemplate('{{ range $k, $v := . }}{{ $k }}={{ $v }};{{ end }}');
    expect(tmpl.render({ b: 1, a: 2 })).toBe('a=2;b=1;');
    expect(tmpl.render({})).toBe('');
  });
});

describe('clock', () => {
  it('uses the injected clock for now', () => {
    expect(renderTemplate('{{ now | date "2006-01-02T15:04:05Z07:00" }}', {}, { now: fixedNow })).toBe('2026-03-07T14:05:09Z');
  });

  it('defaults to the real clock, rendered as RFC 3339 UTC', () => {
    const before = Date.now();
    const rendered = renderTemplate('{{ now | date "2006-01-02T15:04:05.000Z07:00" }}', {});
    expect(rendered).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Date.parse(rendered)).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(Date.parse(rendered)).toBeLessThanOrEqual(Date.now());
  });

  it('accepts Date values in data as time.Time', () => {
    expect(renderTemplate('{{ .t | date "Jan 2, 2006" }}', { t: new Date('2025-12-25T10:00:00Z') })).toBe('Dec 25, 2025');
  });
});

describe('numbers from JSON/YAML', () => {
  it('prints integral JS numbers as Go int and the rest as float64', () => {
    const data = JSON.parse('{"generation": 3, "big": 1000000, "ratio": 0.25}') as Record<string, unknown>;
    expect(renderTemplate('{{ .generation }} {{ .big }} {{ .ratio }}', data)).toBe('3 1000000 0.25');
  });

  it('prints goFloat64 values as Go prints a float64 (what a JSON-decoded Go param holds)', () => {
    expect(renderTemplate('{{ .n }} {{ .m }}', { n: goFloat64(1000000), m: goFloat64(3) })).toBe('1e+06 3');
  });

  it('treats goInt64 as int64', () => {
    expect(renderTemplate('{{ printf "%T %d" .n .n }}', { n: goInt64(42) })).toBe('int64 42');
  });
});
