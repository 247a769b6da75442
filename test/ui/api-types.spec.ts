/**
 * The UI's API types are generated from the OpenAPI document, never copied: the checked-in
 * apps/ui/src/api-types.generated.ts must be exactly what `npm run generate:api-types` writes from the
 * document of the current code, so an API change that the UI's types do not follow fails here.
 */
import { readFile } from 'node:fs/promises';
import { API_TYPES_FILE, apiTypesSource } from '../../scripts/api-types.js';

describe('apps/ui/src/api-types.generated.ts', () => {
  it('is what the OpenAPI document generates (run `npm run generate:api-types` after an API change)', async () => {
    const generated = await apiTypesSource();
    expect(generated).toContain('export interface components');
    expect(await readFile(API_TYPES_FILE, 'utf8')).toBe(generated);
  }, 30_000);
});
