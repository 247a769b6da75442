#!/usr/bin/env node
// Entry point of the `decom` CLI: runs the compiled TypeScript (npm start / npm run demo build first).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const main = join(root, 'dist', 'apps', 'cli', 'src', 'main.js');
if (!existsSync(main)) {
  process.stderr.write('decom: not built yet; run `npm run build` (npm start does it for you)\n');
  process.exit(1);
}
await import(main);
