/**
 * The query pipe keeps each distinct query string's outcome: repeated queries give the same
 * validated value, refused ones are refused every time, unknown parameters are still dropped.
 */
import { ListQueryDto } from '../resources/dto/list-query.dto.js';
import { createQueryValidationPipe } from './validation-pipe.js';

const metadata = { type: 'query' as const, metatype: undefined, data: undefined };

describe('createQueryValidationPipe', () => {
  const pipe = createQueryValidationPipe(ListQueryDto);

  it('validates and converts a query once, then answers the same for the same query', async () => {
    const first = (await pipe.transform({ size: '20', order: 'name asc', bogus: 'x' }, metadata)) as ListQueryDto;
    expect({ ...first }).toEqual({ size: 20, order: 'name asc' });
    expect(await pipe.transform({ size: '20', order: 'name asc', bogus: 'x' }, metadata)).toBe(first);
    expect({ ...((await pipe.transform({ size: '21' }, metadata)) as object) }).toEqual({ size: 21 });
  });

  it('refuses a bad query every time it comes', async () => {
    for (let i = 0; i < 2; i++) await expect(pipe.transform({ size: '500' }, metadata)).rejects.toThrow(/size/);
  });

  it('answers an empty query without validating', async () => {
    expect(await pipe.transform({}, metadata)).toEqual({});
  });

  it('tells the kept outcome without a promise, and nothing for a query not seen or refused', async () => {
    expect(pipe.keptResult({})).toEqual({});
    expect(pipe.keptResult({ size: '33' })).toBeUndefined();
    const validated = await pipe.transform({ size: '33' }, metadata);
    expect(pipe.keptResult({ size: '33' })).toBe(validated);
    await expect(pipe.transform({ size: '0' }, metadata)).rejects.toThrow(/size/);
    expect(pipe.keptResult({ size: '0' })).toBeUndefined();
  });
});
