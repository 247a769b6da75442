#!/usr/bin/env node
// `npm start` / `npm run demo` / `npm run bench` call this first: it runs `npm run build` only when the
// sources changed since the last build (a digest of every input's path, size and mtime, stored in
// dist/.build-stamp), so a second start with nothing changed answers within seconds instead of
// re-running the whole TypeScript build. The build itself is incremental (tsc --incremental).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const stampFile = join(root, 'dist', '.build-stamp');
const INPUT_DIRS = ['apps', 'libs', 'test/bench'];
const INPUT_FILES = ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json'];
const INPUT_EXT = /\.(ts|tsx|mts|proto|json|yaml|js|mjs|pegjs|peggy|css|html|svg)$/;

function walk(dir, out) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, out);
    else if (INPUT_EXT.test(entry.name)) out.push(path);
  }
}

function digest() {
  const files = [];
  for (const dir of INPUT_DIRS) walk(join(root, dir), files);
  for (const file of INPUT_FILES) if (existsSync(join(root, file))) files.push(join(root, file));
  const hash = createHash('sha256');
  for (const file of files.sort()) {
    const stat = statSync(file);
    hash.update(`${file.slice(root.length)}\0${stat.size}\0${stat.mtimeMs}\n`);
  }
  return hash.digest('hex');
}

const current = digest();
const main = join(root, 'dist', 'apps', 'cli', 'src', 'main.js');
const previous = existsSync(stampFile) ? readFileSync(stampFile, 'utf8').trim() : '';
if (previous === current && existsSync(main)) process.exit(0);

process.stderr.write(
  previous
    ? 'decom: sources changed since the last build: building…\n'
    : 'decom: first start: building (once; later starts skip this while nothing changed)…\n',
);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const build = spawnSync(npm, ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) {
  process.stderr.write('decom: build failed\n');
  process.exit(build.status ?? 1);
}
mkdirSync(join(root, 'dist'), { recursive: true });
writeFileSync(stampFile, `${current}\n`);
