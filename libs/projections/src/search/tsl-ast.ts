/**
 * The TSL search AST produced by tsl.peggy (hyperfleet-api `docs/search.md`). Field names are raw dotted identifiers
 * (`labels.env`, `spec.release.version`, `status.conditions.Ready.observed_generation`); what they mean
 * is decided by the field table of the list being searched (search-fields.ts).
 */
export type TslLiteral =
  | { readonly type: 'string'; readonly value: string }
  | { readonly type: 'number'; readonly value: number; readonly text: string }
  | { readonly type: 'boolean'; readonly value: boolean };

export type TslCompareOp = '=' | '!=' | '<' | '<=' | '>' | '>=';

export type TslExpr =
  | { readonly kind: 'and' | 'or'; readonly left: TslExpr; readonly right: TslExpr }
  | { readonly kind: 'not'; readonly expr: TslExpr }
  | { readonly kind: 'compare'; readonly field: string; readonly op: TslCompareOp; readonly value: TslLiteral }
  | { readonly kind: 'in'; readonly field: string; readonly values: readonly TslLiteral[]; readonly negated: boolean }
  | { readonly kind: 'between'; readonly field: string; readonly low: TslLiteral; readonly high: TslLiteral; readonly negated: boolean }
  | {
      readonly kind: 'like';
      readonly field: string;
      readonly pattern: string;
      readonly caseInsensitive: boolean;
      readonly negated: boolean;
    }
  | { readonly kind: 'null'; readonly field: string; readonly negated: boolean };

export type TslPredicate = Exclude<TslExpr, { kind: 'and' | 'or' | 'not' }>;
