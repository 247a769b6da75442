import { toPositionalPlaceholders } from './positional-placeholders.js';

describe('toPositionalPlaceholders', () => {
  it.each([
    ['SELECT 1', 'SELECT 1'],
    ['SELECT * FROM t WHERE a = ?', 'SELECT * FROM t WHERE a = $1'],
    ['INSERT INTO t (a, b, c) VALUES (?, ?,?)', 'INSERT INTO t (a, b, c) VALUES ($1, $2,$3)'],
    [
      'UPDATE t SET a = ? WHERE b = ? AND c IN (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      'UPDATE t SET a = $1 WHERE b = $2 AND c IN ($3, $4, $5, $6, $7, $8, $9, $10, $11)',
    ],
  ])('%s', (sql, expected) => {
    expect(toPositionalPlaceholders(sql)).toBe(expected);
  });
});
