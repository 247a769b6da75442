/**
 * GraphQL hardening (issue 9 item 7): validation rules from graphql-armor run before any resolver, so an
 * abusive document (500 aliases, deep nesting, a huge selection) is refused as a 400 in milliseconds
 * instead of being executed. Introspection is not counted by the cost rule.
 */
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { costLimitRule } from '@escape.tech/graphql-armor-cost-limit';
import type { ValidationRule } from 'graphql';

/** Aliases per operation. */
export const MAX_ALIASES = 15;
/** Field nesting depth (the deepest dashboard query nests 4). */
export const MAX_DEPTH = 10;
/** graphql-armor cost units (object 2, scalar 1, × 1.5 per level). */
export const MAX_COST = 5_000;
/**
 * Tokens per document, checked by graphql-js's lexer while parsing (mercurius `graphql.parseOptions`): the
 * validation rules above run on a parsed document, and a few thousand nested braces overflowed the
 * recursive parser's stack before any of them could refuse it. The largest dashboard query is ~100 tokens.
 */
export const MAX_TOKENS = 2_000;

export function graphqlValidationRules(): ValidationRule[] {
  return [
    maxAliasesRule({ n: MAX_ALIASES, exposeLimits: true }),
    maxDepthRule({ n: MAX_DEPTH, exposeLimits: true }),
    costLimitRule({ maxCost: MAX_COST, exposeLimits: true }),
  ] as unknown as ValidationRule[];
}
