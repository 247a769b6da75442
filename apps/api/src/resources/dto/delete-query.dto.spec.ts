import { HttpProblem } from '../../problem-details/problem.js';
import { createQueryValidationPipe } from '../../problem-details/validation-pipe.js';
import { DeleteQueryDto } from './delete-query.dto.js';

const pipe = createQueryValidationPipe(DeleteQueryDto);
const validate = (query: object) => pipe.transform(query, { type: 'query', metatype: Object });

describe('DELETE query parameters', () => {
  it('reads each once, dropping unknown ones (dryRun is read from the raw query)', async () => {
    expect({ ...((await validate({})) as object) }).toEqual({});
    expect({
      ...((await validate({
        delete_for_move: 'true',
        propagationPolicy: 'Background',
        deletion_budget_override: 'planned move',
        dryRun: 'All',
        other: 'x',
      })) as object),
    }).toEqual({ delete_for_move: 'true', propagationPolicy: 'Background', deletion_budget_override: 'planned move' });
  });

  it.each([
    [{ deletion_budget_override: ['a', 'b'] }, 'deletion_budget_override must be given once, got 2 values', 'unique'],
    [{ delete_for_move: ['true', 'false'] }, 'delete_for_move must be given once, got 2 values', 'unique'],
    [{ propagationPolicy: ['Foreground', 'Background'] }, 'propagationPolicy must be given once, got 2 values', 'unique'],
    [{ delete_for_move: 'yes' }, 'delete_for_move must be true or false', 'enum'],
  ])('refuses %j with 400 VAL-000: %s', async (query, message, constraint) => {
    const refusal = (await validate(query).catch((error: unknown) => error)) as HttpProblem;
    expect(refusal).toBeInstanceOf(HttpProblem);
    expect([refusal.status, refusal.code, refusal.message]).toEqual([400, 'HYPERFLEET-VAL-000', message]);
    const [field, value] = Object.entries(query)[0]!;
    expect(refusal.errors).toEqual([{ field, value, constraint, message }]);
  });
});
