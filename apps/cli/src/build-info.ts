/**
 * Version and commit of this build, for `decom --version` and `hyperfleet_api_build_info`: the version
 * from Decom's package.json, the commit from the checkout's `.git` (a plain read of HEAD: no git binary
 * needed at run time), `unknown` when there is none (e.g. an installed tarball).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
// A type only: `decom --version` loads no library.
import type { BuildInfo } from '@decom/runtime';

let cached: BuildInfo | undefined;

export function buildInfo(): BuildInfo {
  if (cached) return cached;
  const root = packageRoot();
  let version = 'unknown';
  let commit = 'unknown';
  if (root) {
    try {
      version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: string }).version ?? 'unknown';
    } catch {
      // keep unknown
    }
    commit = gitCommit(root) ?? 'unknown';
  }
  cached = { version, commit };
  return cached;
}

/** The nearest folder above this file whose package.json names `decom`. */
function packageRoot(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'decom') return dir;
      } catch {
        // not ours
      }
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

function gitCommit(root: string): string | undefined {
  try {
    let gitDir = join(root, '.git');
    if (!existsSync(gitDir)) return undefined;
    // A worktree's `.git` is a file: `gitdir: <path>`.
    if (statSync(gitDir).isFile())
      gitDir = resolve(
        root,
        readFileSync(gitDir, 'utf8')
          .replace(/^gitdir:\s*/, '')
          .trim(),
      );
    const head = readFileSync(join(gitDir, 'HEAD'), 'utf8').trim();
    if (!head.startsWith('ref:')) return head.slice(0, 12);
    const ref = head.slice(4).trim();
    const commonDir = existsSync(join(gitDir, 'commondir'))
      ? resolve(gitDir, readFileSync(join(gitDir, 'commondir'), 'utf8').trim())
      : gitDir;
    for (const dir of [gitDir, commonDir]) {
      if (existsSync(join(dir, ref))) return readFileSync(join(dir, ref), 'utf8').trim().slice(0, 12);
    }
    const packed = existsSync(join(commonDir, 'packed-refs')) ? readFileSync(join(commonDir, 'packed-refs'), 'utf8') : '';
    const line = packed.split('\n').find((l) => l.endsWith(` ${ref}`));
    return line ? line.slice(0, 12) : undefined;
  } catch {
    return undefined;
  }
}
