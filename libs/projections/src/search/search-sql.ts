/**
 * Compiles a TSL AST to a parameterized SQL condition for the read model (SQLite or PostgreSQL).
 * Every value from the search text is a bound parameter, never spliced into SQL; identifiers come only
 * from the schema's table, and JSON keys/paths are bound too.
 *
 * Typing (hyperfleet-api `pkg/db/sql_tsl.go`): text columns take quoted strings; `generation`-like columns take
 * integers; `*_time` columns take RFC 3339 strings or dates (`'2020-01-01'`, midnight UTC), normalised to the stored
 * ISO form, so comparisons are by time.
 * In `spec.<path>` a quoted string matches only JSON strings, an unquoted number only JSON numbers
 * (compared numerically), `true`/`false` only JSON booleans. `status.conditions.<Type>` takes `=` with
 * True/False/Unknown, or `IS NULL` (no condition of that type); its subfields compare like columns. `not` over `labels.*` or `status.conditions.*` is
 * refused, as in HyperFleet. `like` is case-sensitive on both databases, `ilike` ASCII-case-insensitive.
 * @throws SearchFieldError (→ HYPERFLEET-VAL-005) for unknown fields, or an operator/value a field does not take.
 */
import { SearchFieldError } from './search-errors.js';
import { resolveField, type ResolvedField, type SearchSchema } from './search-fields.js';
import type { TslExpr, TslLiteral, TslPredicate } from './tsl-ast.js';

export type SqlDialect = 'sqlite' | 'postgres';

export interface SqlCondition {
  /** A boolean SQL expression with `?` placeholders. */
  readonly sql: string;
  readonly params: readonly unknown[];
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
/** A date alone (`'2020-01-01'`), as TSL's date literals: midnight UTC of that day. */
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const CONDITION_STATUSES = ['True', 'False', 'Unknown'];

/** Compiles `expr` over `schema` for `dialect`. @throws SearchFieldError */
export function compileSearch(expr: TslExpr, schema: SearchSchema, dialect: SqlDialect, search: string): SqlCondition {
  return new Compiler(schema, dialect, search).expr(expr);
}

type ValueType = 'text' | 'integer' | 'time' | 'number' | 'boolean';

/** A value expression for one field read as one type: SQL with `?`s plus their params. */
interface Operand {
  readonly sql: string;
  readonly params: readonly unknown[];
  readonly type: ValueType;
}

class Compiler {
  constructor(
    private readonly schema: SearchSchema,
    private readonly dialect: SqlDialect,
    private readonly search: string,
  ) {}

  expr(e: TslExpr): SqlCondition {
    switch (e.kind) {
      case 'and':
      case 'or': {
        const left = this.expr(e.left);
        const right = this.expr(e.right);
        return { sql: `(${left.sql} ${e.kind === 'and' ? 'AND' : 'OR'} ${right.sql})`, params: [...left.params, ...right.params] };
      }
      case 'not': {
        const field = firstField(e.expr, (f) => this.isLabelOrCondition(f));
        if (field !== undefined) this.fail(field, '"not" cannot be used with labels.* or status conditions (as in HyperFleet)');
        const inner = this.expr(e.expr);
        return { sql: `(NOT ${inner.sql})`, params: inner.params };
      }
      default:
        return this.predicate(e);
    }
  }

  private isLabelOrCondition(name: string): boolean {
    const f = resolveField(this.schema, name, this.search);
    return f.kind === 'label' || f.kind === 'condition';
  }

  private predicate(p: TslPredicate): SqlCondition {
    const field = resolveField(this.schema, p.field, this.search);
    // TSL reads `not in`, `is not null`, `not between`, `not like` as a `not` over the predicate.
    if ((field.kind === 'label' || field.kind === 'condition') && 'negated' in p && p.negated) {
      this.fail(p.field, '"not" cannot be used with labels.* or status conditions (as in HyperFleet)');
    }
    if (field.kind === 'condition' && !field.subfield && p.kind === 'null') {
      // `status.conditions.<Type> IS NULL`: the resource has no condition of that type.
      const exists = this.conditionExists(field, '1 = 1');
      return { sql: `NOT ${exists.sql}`, params: exists.params };
    }
    if (field.kind === 'condition' && !field.subfield) return this.conditionStatus(field, p);
    if (field.kind === 'condition') {
      // status.conditions.<Type>.<subfield> <op> ... : some condition of that type whose subfield matches.
      if (p.kind === 'null') this.fail(p.field, 'does not take IS NULL');
      const inner = this.onOperand(p, (literal) => this.conditionSubfield(field, literal));
      const exists = this.conditionExists(field, inner.sql);
      return { sql: exists.sql, params: [...exists.params, ...inner.params] };
    }
    if (field.kind === 'label' && field.table) return this.labelRows(field, field.table, p);
    if (p.kind === 'null') return this.isNull(field, p.negated);
    return this.onOperand(p, (literal) => this.operand(field, literal));
  }

  /**
   * A label predicate over the label table: the row has label `key` and its `value` matches (`IS NULL`:
   * no such label). Equivalent to the JSON read, where a missing key is NULL and matches nothing.
   * Correlated (one primary-key probe per row) rather than `id IN (all matching ids)`: a page in index
   * order stops after `size` matches instead of collecting every match first.
   */
  private labelRows(field: Extract<ResolvedField, { kind: 'label' }>, table: string, p: TslPredicate): SqlCondition {
    const has = `FROM ${table} rl WHERE rl.resource_id = ${this.schema.table}.id AND rl.key = ?`;
    if (p.kind === 'null') return { sql: `${p.negated ? 'EXISTS' : 'NOT EXISTS'} (SELECT 1 ${has})`, params: [field.key] };
    const match = this.onOperand(p, () => ({ sql: 'rl.value', params: [], type: 'text' }));
    return { sql: `EXISTS (SELECT 1 ${has} AND ${match.sql})`, params: [field.key, ...match.params] };
  }

  /** Applies a predicate's operator to the operand `read` gives for its literal(s). */
  private onOperand(p: Exclude<TslPredicate, { kind: 'null' }>, read: (literal: TslLiteral) => Operand): SqlCondition {
    switch (p.kind) {
      case 'compare': {
        const o = read(p.value);
        if (o.type === 'boolean' && p.op !== '=' && p.op !== '!=') this.fail(p.field, `compares true/false only with = and !=`);
        return { sql: `${o.sql} ${p.op === '!=' ? '<>' : p.op} ?`, params: [...o.params, this.param(o, p.value, p.field)] };
      }
      case 'in': {
        const o = read(p.values[0]!);
        for (const v of p.values) if (v.type !== p.values[0]!.type) this.fail(p.field, 'needs values of one type in "in [...]"');
        const marks = p.values.map(() => '?').join(', ');
        return {
          sql: `${o.sql} ${p.negated ? 'NOT IN' : 'IN'} (${marks})`,
          params: [...o.params, ...p.values.map((v) => this.param(o, v, p.field))],
        };
      }
      case 'between': {
        const o = read(p.low);
        if (p.high.type !== p.low.type) this.fail(p.field, 'needs two values of one type in "between"');
        if (o.type === 'boolean') this.fail(p.field, 'does not take "between" with true/false');
        return {
          sql: `${o.sql} ${p.negated ? 'NOT BETWEEN' : 'BETWEEN'} ? AND ?`,
          params: [...o.params, this.param(o, p.low, p.field), this.param(o, p.high, p.field)],
        };
      }
      case 'like': {
        const o = read({ type: 'string', value: p.pattern });
        if (o.type !== 'text') this.fail(p.field, 'takes "like"/"ilike" only when it holds text');
        const match = this.likeSql(o.sql, p.caseInsensitive);
        const pattern = this.dialect === 'sqlite' && !p.caseInsensitive ? likeToGlob(p.pattern) : p.pattern;
        return { sql: p.negated ? `(NOT ${match})` : match, params: [...o.params, pattern] };
      }
    }
  }

  private likeSql(value: string, caseInsensitive: boolean): string {
    if (this.dialect === 'postgres') return `(${value} ${caseInsensitive ? 'ILIKE' : 'LIKE'} ? ESCAPE '')`;
    // SQLite's LIKE ignores ASCII case and has no escape by default; GLOB is its case-sensitive match.
    return caseInsensitive ? `(${value} LIKE ?)` : `(${value} GLOB ?)`;
  }

  /** The bound value of `literal` compared with operand `o`. */
  private param(o: Operand, literal: TslLiteral, field: string): unknown {
    switch (o.type) {
      case 'text':
        if (literal.type !== 'string') this.fail(field, `needs a quoted string, not ${describe(literal)}`);
        return literal.value;
      case 'time': {
        if (literal.type !== 'string' || !(RFC3339.test(literal.value) || DATE_ONLY.test(literal.value))) {
          this.fail(
            field,
            `needs an RFC 3339 date-time or a date in quotes (e.g. '2026-03-06T14:00:00Z', '2026-03-06'), not ${describe(literal)}`,
          );
        }
        const text = literal.value as string;
        const millis = Date.parse(DATE_ONLY.test(text) ? `${text}T00:00:00Z` : text);
        if (Number.isNaN(millis)) this.fail(field, `needs a valid RFC 3339 date-time, not ${describe(literal)}`);
        return new Date(millis).toISOString();
      }
      case 'integer':
        if (literal.type !== 'number' || !Number.isSafeInteger(literal.value))
          this.fail(field, `needs an unquoted integer, not ${describe(literal)}`);
        return literal.value;
      case 'number':
        if (literal.type !== 'number' || !Number.isFinite(literal.value)) this.fail(field, `needs a number, not ${describe(literal)}`);
        return literal.value;
      case 'boolean':
        if (literal.type !== 'boolean') this.fail(field, `needs true or false, not ${describe(literal)}`);
        return String(literal.value);
    }
  }

  /** The operand of a column, label or document path, typed by the literal compared with it. */
  private operand(field: Exclude<ResolvedField, { kind: 'condition' }>, literal: TslLiteral): Operand {
    switch (field.kind) {
      case 'column':
        return { sql: field.column, params: [], type: field.type };
      case 'label':
        return this.dialect === 'sqlite'
          ? { sql: `json_extract(${field.column}, ?)`, params: [`$."${field.key}"`], type: 'text' }
          : { sql: `(CAST(${field.column} AS jsonb) ->> CAST(? AS text))`, params: [field.key], type: 'text' };
      case 'document':
        return this.documentOperand(field, literal);
    }
  }

  /** A JSON path read only when the JSON value there has the literal's type (else NULL, which matches nothing). */
  private documentOperand(field: Extract<ResolvedField, { kind: 'document' }>, literal: TslLiteral): Operand {
    const type: ValueType = literal.type === 'string' ? 'text' : literal.type === 'number' ? 'number' : 'boolean';
    if (this.dialect === 'sqlite') {
      const path = sqlitePath(field.path);
      const test = { text: `= 'text'`, number: `IN ('integer', 'real')`, boolean: `IN ('true', 'false')` }[type as 'text'];
      const read = type === 'boolean' ? `json_type(${field.column}, ?)` : `json_extract(${field.column}, ?)`;
      return { sql: `(CASE WHEN json_type(${field.column}, ?) ${test} THEN ${read} END)`, params: [path, path], type };
    }
    const doc = `CAST(${field.column} AS jsonb)`;
    const jsonType = { text: 'string', number: 'number', boolean: 'boolean' }[type as 'text'];
    const read = type === 'number' ? `CAST(${doc} #>> CAST(? AS text[]) AS numeric)` : `(${doc} #>> CAST(? AS text[]))`;
    return {
      sql: `(CASE WHEN jsonb_typeof(${doc} #> CAST(? AS text[])) = '${jsonType}' THEN ${read} END)`,
      params: [field.path, field.path],
      type,
    };
  }

  private isNull(field: Exclude<ResolvedField, { kind: 'condition' }>, negated: boolean): SqlCondition {
    const is = negated ? 'IS NOT NULL' : 'IS NULL';
    if (field.kind === 'column') return { sql: `${field.column} ${is}`, params: [] };
    if (field.kind === 'label') {
      const o = this.operand(field, { type: 'string', value: '' });
      return { sql: `${o.sql} ${is}`, params: o.params };
    }
    // A missing key and a JSON null are both null.
    const sql =
      this.dialect === 'sqlite'
        ? `COALESCE(json_type(${field.column}, ?), 'null') ${negated ? '<>' : '='} 'null'`
        : `COALESCE(jsonb_typeof(CAST(${field.column} AS jsonb) #> CAST(? AS text[])), 'null') ${negated ? '<>' : '='} 'null'`;
    return { sql, params: [this.dialect === 'sqlite' ? sqlitePath(field.path) : field.path] };
  }

  /** `status.conditions.<Type> = 'True'`: HyperFleet takes only `=` with True/False/Unknown. */
  private conditionStatus(field: Extract<ResolvedField, { kind: 'condition' }>, p: TslPredicate): SqlCondition {
    if (p.kind !== 'compare' || p.op !== '=') this.fail(p.field, `takes only "=" with 'True', 'False' or 'Unknown'`);
    const value = (p as Extract<TslPredicate, { kind: 'compare' }>).value;
    if (value.type !== 'string' || !CONDITION_STATUSES.includes(value.value))
      this.fail(p.field, `takes only 'True', 'False' or 'Unknown', not ${describe(value)}`);
    const status = this.dialect === 'sqlite' ? `json_extract(c.value, '$.status')` : `(c.value ->> 'status')`;
    const exists = this.conditionExists(field, `${status} = ?`);
    return { sql: exists.sql, params: [...exists.params, value.value] };
  }

  private conditionSubfield(field: Extract<ResolvedField, { kind: 'condition' }>, _literal: TslLiteral): Operand {
    const sub = field.subfield!;
    if (this.dialect === 'sqlite') return { sql: `json_extract(c.value, '$.${sub.name}')`, params: [], type: sub.type };
    return {
      sql: sub.type === 'integer' ? `CAST(c.value ->> '${sub.name}' AS bigint)` : `(c.value ->> '${sub.name}')`,
      params: [],
      type: sub.type,
    };
  }

  /** `EXISTS (a condition of field.type in the row's list WHERE <where>)`; `where` may read `c.value`. */
  private conditionExists(field: Extract<ResolvedField, { kind: 'condition' }>, where: string): SqlCondition {
    const column = `${this.schema.table}.${field.column}`;
    const sql =
      this.dialect === 'sqlite'
        ? `EXISTS (SELECT 1 FROM json_each(${column}) AS c WHERE json_extract(c.value, '$.type') = ? AND ${where})`
        : `EXISTS (SELECT 1 FROM jsonb_array_elements(CAST(${column} AS jsonb)) AS c(value) WHERE (c.value ->> 'type') = ? AND ${where})`;
    return { sql, params: [field.type] };
  }

  private fail(field: string, why: string): never {
    throw new SearchFieldError(`search field "${field}" ${why}`, field, this.search);
  }
}

/** The first field name in `e` for which `test` holds. */
function firstField(e: TslExpr, test: (field: string) => boolean): string | undefined {
  switch (e.kind) {
    case 'and':
    case 'or':
      return firstField(e.left, test) ?? firstField(e.right, test);
    case 'not':
      return firstField(e.expr, test);
    default:
      return test(e.field) ? e.field : undefined;
  }
}

/** `$."a"."b"[0]`: segments are [A-Za-z0-9_]+ (search-fields.ts), so no quoting issue; all-digit segments index arrays. */
function sqlitePath(path: readonly string[]): string {
  return '$' + path.map((s) => (/^\d+$/.test(s) ? `[${s}]` : `."${s}"`)).join('');
}

/** A LIKE pattern (`%`, `_`) as the equivalent GLOB pattern (`*`, `?`), GLOB's own metacharacters escaped. */
function likeToGlob(pattern: string): string {
  return [...pattern].map((ch) => (ch === '%' ? '*' : ch === '_' ? '?' : ch === '*' || ch === '?' || ch === '[' ? `[${ch}]` : ch)).join('');
}

function describe(literal: TslLiteral): string {
  return literal.type === 'string' ? `'${literal.value}'` : literal.type === 'number' ? literal.text : String(literal.value);
}
