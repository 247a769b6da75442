/**
 * GraphQL hardening: validation rules from graphql-armor run before any resolver, so an
 * abusive document (500 aliases, deep nesting, a huge selection) is refused as a 400 in milliseconds
 * instead of being executed. Introspection is not counted by the cost rule.
 */
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { costLimitRule } from '@escape.tech/graphql-armor-cost-limit';
import { NoSchemaIntrospectionCustomRule, type ValidationRule } from 'graphql';
import { listCostRule } from './list-cost.js';

/** Aliases per operation. */
export const MAX_ALIASES = 15;
/** Field nesting depth (the deepest dashboard query nests 4). */
export const MAX_DEPTH = 10;
/** graphql-armor cost units (object 2, scalar 1, × 1.5 per level). */
export const MAX_COST = 5_000;
/**
 * Values a document may answer, lists weighed by their size (list-cost.ts): one `history(id, size: 1000)`
 * of the usual fields costs ~15,000, a `resources(size: 100)` page with conditions ~6,000.
 */
export const MAX_LIST_COST = 50_000;
/**
 * Tokens per document, checked by graphql-js's lexer while parsing (mercurius `graphql.parseOptions`): the
 * validation rules above run on a parsed document, and a few thousand nested braces overflowed the
 * recursive parser's stack before any of them could refuse it. The largest dashboard query is ~100 tokens.
 */
export const MAX_TOKENS = 2_000;

/**
 * The rules every document passes before execution. `introspection: false` adds graphql-js's
 * `NoSchemaIntrospectionCustomRule`: `__schema` and `__type` are refused (400, `errors[]`), so a caller
 * with a token cannot map the whole API; `__typename` stays allowed (clients use it for caching).
 */
export function graphqlValidationRules(options: { introspection: boolean } = { introspection: true }): ValidationRule[] {
  return [
    maxAliasesRule({ n: MAX_ALIASES, exposeLimits: true }),
    maxDepthRule({ n: MAX_DEPTH, exposeLimits: true }),
    costLimitRule({ maxCost: MAX_COST, exposeLimits: true }),
    listCostRule(MAX_LIST_COST),
    ...(options.introspection ? [] : [NoSchemaIntrospectionCustomRule]),
  ] as unknown as ValidationRule[];
}
