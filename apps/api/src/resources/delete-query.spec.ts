import { ValidationFailed } from '@decom/domain';
import { deleteQueryOf } from './delete-query.js';

describe('DELETE query parameters', () => {
  it('reads each once', () => {
    expect(deleteQueryOf({})).toEqual({ deleteForMove: false });
    expect(deleteQueryOf({ delete_for_move: 'true', propagationPolicy: 'Background', deletion_budget_override: 'planned move' })).toEqual({
      deleteForMove: true,
      propagationPolicy: 'Background',
      budgetOverride: 'planned move',
    });
  });

  it.each([
    [{ deletion_budget_override: ['a', 'b'] }, 'deletion_budget_override must be given once, got 2 values'],
    [{ delete_for_move: ['true', 'false'] }, 'delete_for_move must be given once, got 2 values'],
    [{ propagationPolicy: ['Foreground', 'Background'] }, 'propagationPolicy must be given once, got 2 values'],
    [{ delete_for_move: 'yes' }, 'delete_for_move must be true or false'],
  ])('refuses %j with 400: %s', (query, message) => {
    expect(() => deleteQueryOf(query)).toThrow(ValidationFailed);
    expect(() => deleteQueryOf(query)).toThrow(message);
  });
});
