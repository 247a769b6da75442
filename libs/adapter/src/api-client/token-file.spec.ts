import { mkdtemp, rm, writeFile, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tokenFileSource } from './token-file.js';

describe('token_path (clients.hyperfleet_api.auth.token_path)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'decom-token-'));
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('reads the token (trimmed) and re-reads it when the file changes', async () => {
    const file = join(dir, 'token');
    await writeFile(file, 'first-token\n');
    const source = tokenFileSource(file, 0);
    expect(await source()).toBe('first-token');
    await writeFile(file, 'rotated-token-2\n');
    const later = new Date(Date.now() + 5_000);
    await utimes(file, later, later);
    expect(await source()).toBe('rotated-token-2');
  });

  it('names the file when it is missing or empty', async () => {
    await expect(tokenFileSource(join(dir, 'missing'), 0)()).rejects.toThrow(`cannot read the API token file ${join(dir, 'missing')}`);
    await writeFile(join(dir, 'empty'), '  \n');
    await expect(tokenFileSource(join(dir, 'empty'), 0)()).rejects.toThrow('the file is empty');
  });
});
