import { tests as conformance } from '@bufbuild/cel-spec/testdata/conformance.js';
import { UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { KNOWN_FAILURES } from './cel-conformance.known-failures.js';
import { CelCompileError, CelEvalError, evaluateCel } from './index.js';

/**
 * Regression suite from the official CEL conformance data (@bufbuild/cel-spec), limited to the
 * sections our task configs use: literals, comparisons, conversions, map fields and has(), lists,
 * logic, macros, optionals, strings and the strings extension, timestamps. Proto messages, enums
 * and type environments are out of scope (task configs only see JSON). Known failures are listed,
 * with reasons, in cel-conformance.known-failures.ts and run as `it.failing`, so a fix shows up as
 * a failure asking to shorten the list.
 */

const SECTIONS: Readonly<Record<string, readonly string[] | 'all'>> = {
  basic: ['self_eval_zeroish', 'self_eval_nonzeroish', 'variables', 'functions', 'reserved_const'],
  comparisons: ['eq_literal', 'ne_literal', 'lt_literal', 'gt_literal', 'lte_literal', 'gte_literal', 'in_list_literal', 'in_map_literal'],
  conversions: ['bool', 'double', 'int', 'string', 'identity'],
  fields: ['map_fields', 'map_has', 'quoted_map_fields', 'in'],
  lists: 'all',
  logic: 'all',
  macros: 'all',
  optionals: 'all',
  string: 'all',
  string_ext: ['char_at', 'index_of', 'last_index_of', 'ascii_casing', 'replace', 'split', 'substring', 'trim', 'join', 'quote'],
  timestamps: ['timestamp_conversions', 'duration_conversions', 'timestamp_equality', 'duration_equality', 'comparisons'],
};

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

interface Case {
  readonly id: string;
  readonly expr: string;
  readonly bindings: Record<string, unknown>;
  /** `undefined` means an error is expected. */
  readonly expected: { value: unknown } | undefined;
}

class Unsupported extends Error {}

function decode(value: JsonObject): unknown {
  const [kind, raw] = Object.entries(value)[0] ?? ['nullValue', null];
  switch (kind) {
    case 'nullValue':
      return null;
    case 'boolValue':
    case 'stringValue':
      return raw;
    case 'int64Value':
      return BigInt(raw as string | number);
    case 'uint64Value':
      return new UnsignedInt(BigInt(raw as string | number));
    case 'doubleValue':
      return typeof raw === 'string' ? Number(raw) : raw;
    case 'bytesValue':
      return new Uint8Array(Buffer.from(raw as string, 'base64'));
    case 'typeValue':
      return { type: raw };
    case 'listValue':
      return (((raw as JsonObject).values as JsonObject[] | undefined) ?? []).map(decode);
    case 'mapValue':
      return new Map(
        (((raw as JsonObject).entries as JsonObject[] | undefined) ?? []).map((e) => [
          decode(e.key as JsonObject),
          decode(e.value as JsonObject),
        ]),
      );
    default:
      throw new Unsupported(kind);
  }
}

/** Expected values in the shape `evaluate` returns (ints as numbers, maps as objects, types as names). */
function normalizeExpected(value: unknown): unknown {
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value;
  if (value instanceof UnsignedInt) return normalizeExpected(value.value);
  if (Array.isArray(value)) return value.map(normalizeExpected);
  if (value instanceof Map) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of value) out[String(k instanceof UnsignedInt ? k.value : k)] = normalizeExpected(v);
    return out;
  }
  if (value && typeof value === 'object' && 'type' in value) return (value as { type: unknown }).type;
  return value;
}

function collectCases(): Case[] {
  const cases: Case[] = [];
  for (const suite of conformance.suites ?? []) {
    const wanted = SECTIONS[suite.name];
    if (!wanted) continue;
    for (const section of suite.suites ?? []) {
      if (wanted !== 'all' && !wanted.includes(section.name)) continue;
      for (const test of section.tests ?? []) {
        const original = test.original as JsonObject & { expr: string };
        if (original.container || original.typeEnv) continue;
        try {
          const bindings: Record<string, unknown> = {};
          for (const [name, binding] of Object.entries((original.bindings as JsonObject | undefined) ?? {})) {
            bindings[name] = decode((binding as JsonObject).value as JsonObject);
          }
          const expected = original.evalError
            ? undefined
            : { value: normalizeExpected(original.value ? decode(original.value as JsonObject) : true) };
          cases.push({ id: `${suite.name}/${section.name}/${original.name as string}`, expr: original.expr, bindings, expected });
        } catch (error) {
          if (!(error instanceof Unsupported)) throw error;
        }
      }
    }
  }
  return cases;
}

const cases = collectCases();

describe('CEL conformance (selected sections)', () => {
  it('selects a meaningful number of cases', () => {
    expect(cases.length).toBeGreaterThan(500);
  });

  it('lists only known failures that exist', () => {
    const ids = new Set(cases.map((c) => c.id));
    expect(Object.keys(KNOWN_FAILURES).filter((id) => !ids.has(id))).toEqual([]);
  });

  for (const c of cases) {
    const test = KNOWN_FAILURES[c.id] ? it.failing : it;
    test(`${c.id}: ${c.expr}`, () => {
      if (c.expected === undefined) {
        expect(() => evaluateCel(c.expr, c.bindings)).toThrow();
        return;
      }
      let actual: unknown;
      try {
        actual = evaluateCel(c.expr, c.bindings);
      } catch (error) {
        if (error instanceof CelCompileError || error instanceof CelEvalError) throw error;
        throw new Error(`not a CEL error: ${String(error)}`);
      }
      if (typeof c.expected.value === 'number' && Number.isNaN(c.expected.value)) expect(actual).toBeNaN();
      else expect(actual).toEqual(c.expected.value);
    });
  }
});
