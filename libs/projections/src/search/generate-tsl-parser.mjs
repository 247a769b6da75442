#!/usr/bin/env node
// Regenerates tsl-parser.generated.ts from tsl.peggy (`npm run generate:tsl`).
// The generated parser is committed (not built at build time) so that tsc, ts-jest and `node dist/...`
// all load it with no pre-build step; tsl-parser.spec.ts fails when the committed file is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import peggy from 'peggy';

const GRAMMAR = fileURLToPath(new URL('./tsl.peggy', import.meta.url));
const OUTPUT = fileURLToPath(new URL('./tsl-parser.generated.ts', import.meta.url));

/** The generated parser module's source text (ES module, no runtime dependency on peggy). */
export function generateTslParser() {
  const source = peggy.generate(readFileSync(GRAMMAR, 'utf8'), { output: 'source', format: 'es', grammarSource: 'tsl.peggy' });
  return `// @ts-nocheck\n// GENERATED from tsl.peggy by generate-tsl-parser.mjs (npm run generate:tsl). Do not edit.\n${source}`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(OUTPUT, generateTslParser());
  console.log(`wrote ${OUTPUT}`);
}
