import { ConditionTypeError, evaluateCondition } from './condition-operators.js';
import type { FieldValue } from '../config/field-path.js';

const found = (value: unknown): FieldValue => ({ found: true, value });
const missing: FieldValue = { found: false };

describe('evaluateCondition: the 11 precondition operators (§2.2)', () => {
  it.each<[string, Parameters<typeof evaluateCondition>[0], FieldValue, unknown, boolean]>([
    ['equals string', 'equals', found('Ready'), 'Ready', true],
    ['equals number', 'equals', found(2), 2, true],
    ['equals deep', 'equals', found({ a: [1] }), { a: [1] }, true],
    ['equals missing vs value', 'equals', missing, 'x', false],
    ['notEquals', 'notEquals', found('a'), 'b', true],
    ['in', 'in', found('b'), ['a', 'b'], true],
    ['in (absent)', 'in', found('c'), ['a', 'b'], false],
    ['notIn', 'notIn', found('c'), ['a', 'b'], true],
    ['contains substring', 'contains', found('hello world'), 'world', true],
    ['contains list item', 'contains', found(['x', 'y']), 'y', true],
    ['contains map key', 'contains', found({ k: 1 }), 'k', true],
    ['contains on missing', 'contains', missing, 'k', false],
    ['greaterThan', 'greaterThan', found(3), 2, true],
    ['greaterThanOrEqual', 'greaterThanOrEqual', found(2), 2, true],
    ['lessThan', 'lessThan', found(1), 2, true],
    ['lessThanOrEqual', 'lessThanOrEqual', found(3), 2, false],
    ['exists', 'exists', found('x'), undefined, true],
    ['exists empty string', 'exists', found(''), undefined, false],
    ['exists empty list', 'exists', found([]), undefined, false],
    ['notExists missing', 'notExists', missing, undefined, true],
  ])('%s', (_, operator, field, expected, result) => {
    expect(evaluateCondition(operator, field, expected)).toBe(result);
  });

  it('throws ConditionTypeError for numeric operators on strings', () => {
    expect(() => evaluateCondition('greaterThan', found('3'), 2)).toThrow(ConditionTypeError);
  });
});
