// Node module hooks that run the TypeScript sources as ts-jest does in the tests: each file transpiled on
// its own (TypeScript's transpileModule, no type check), `@decom/...` aliases mapped as tsconfig.json's
// `paths` say and `./x.js` imports mapped to `./x.ts`. Hand-rolled because no TS loader (tsx, ts-node) is installed
// and esbuild-based ones drop emitDecoratorMetadata, which Nest's dependency injection needs.
// Outputs are cached on disk by content hash: the first child pays ~10 s of transpiling, the next ones don't.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve as resolvePath } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

const cacheDir = join(tmpdir(), `decom-ts-loader-${ts.version}`);
const root = resolvePath(dirname(fileURLToPath(import.meta.url)), '../../..');
const options = {
  module: ts.ModuleKind.ESNext,
  target: ts.ScriptTarget.ES2022,
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
  esModuleInterop: true,
  inlineSourceMap: true,
};

// The aliases are tsconfig.json's own (exact names, one target each), so a new one needs no change here.
const { compilerOptions } = ts.readConfigFile(join(root, 'tsconfig.json'), ts.sys.readFile).config;
const aliases = new Map(Object.entries(compilerOptions.paths).map(([name, [target]]) => [name, pathToFileURL(join(root, target)).href]));

export async function resolve(specifier, context, next) {
  const alias = aliases.get(specifier);
  if (alias) return { url: alias, shortCircuit: true };
  if (specifier.startsWith('.') && specifier.endsWith('.js') && context.parentURL?.endsWith('.ts')) {
    const candidate = join(dirname(fileURLToPath(context.parentURL)), specifier.replace(/\.js$/, '.ts'));
    if (existsSync(candidate)) return { url: pathToFileURL(candidate).href, shortCircuit: true };
  }
  return next(specifier, context);
}

export async function load(url, context, next) {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return next(url, context);
  const fileName = fileURLToPath(url);
  const source = await readFile(fileName, 'utf8');
  const cached = join(cacheDir, `${createHash('sha1').update(fileName).update('\0').update(source).digest('hex')}.js`);
  try {
    return { format: 'module', source: await readFile(cached, 'utf8'), shortCircuit: true };
  } catch {
    // Not cached yet.
  }
  const { outputText } = ts.transpileModule(source, { fileName, compilerOptions: options });
  await mkdir(cacheDir, { recursive: true });
  // Write then rename: concurrent children never read a half-written file.
  const temporary = `${cached}.${process.pid}.tmp`;
  await writeFile(temporary, outputText);
  await rename(temporary, cached);
  return { format: 'module', source: outputText, shortCircuit: true };
}
