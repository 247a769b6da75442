/**
 * A tool, not a test: `npm run generate:api-types` writes apps/ui/src/api-types.generated.ts from the
 * OpenAPI document (scripts/api-types.ts). It runs under Jest for the same TypeScript transform and module
 * aliases as the code it reads.
 */
import { writeFile } from 'node:fs/promises';
import { API_TYPES_FILE, apiTypesSource } from './api-types.js';

it('writes the UI types from the OpenAPI document', async () => {
  await writeFile(API_TYPES_FILE, await apiTypesSource());
}, 60_000);
