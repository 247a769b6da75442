/**
 * `npm run bench`: runs every `*.bench.js` next to this file (compiled to dist/test/bench), prints each
 * section and the "Targets" table (every figure beside its ceiling from the same run, the ratio,
 * the target, met or not), and writes them to docs/benchmarks.md with the Node version and load average.
 * The full run takes about 22 minutes on 2 cores (most of it the scaling scenario's 5,000 clusters).
 *
 * Flags (`npm run bench -- <flags>`):
 * - `--quick`: tiny sizes, for CI: checks only that every scenario runs (~1-2 minutes); prints, never writes
 *   docs/benchmarks.md; exits 1 when a scenario throws (a full run does too, and then writes nothing).
 * - `--profile`: engine children run under `node --cpu-prof`; sections list the top 10 self-time functions
 *   of the processes behind a missed target.
 * - names (`npm run bench -- http-api`): only those modules; only their sections of the file are replaced
 *   (the Targets table is rewritten by full runs only).
 * A bench module's default export takes a BenchContext (support/context.ts) and returns its Markdown section.
 */
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { targetsTable, type BenchContext, type BenchModule, type TargetRow } from './support/context.js';
import { fmt, loadAverage, secondsSince } from './support/util.js';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const profile = args.includes('--profile');
const unknown = args.filter((a) => a.startsWith('--') && a !== '--quick' && a !== '--profile');
if (unknown.length > 0) {
  process.stderr.write(`bench: unknown flag(s) ${unknown.join(' ')}; known: --quick, --profile, and module names\n`);
  process.exit(2);
}
const only = args.filter((a) => !a.startsWith('--'));
const files = (await readdir(here)).filter((f) => f.endsWith('.bench.js') && (only.length === 0 || only.some((o) => f.includes(o)))).sort();
if (files.length === 0) {
  process.stderr.write(`bench: no bench module matches ${only.join(', ')}\n`);
  process.exit(2);
}

const loadAtStart = loadAverage();
const started = performance.now();
process.stdout.write(
  `bench${quick ? ' --quick' : ''}${profile ? ' --profile' : ''}: Node ${process.version}, ${cpus().length} cores, load average ${loadAtStart}\n`,
);
const sections: string[] = [];
const targets: TargetRow[] = [];
const timings: string[] = [];
const failures: string[] = [];
for (const file of files) {
  const name = file.replace(/\.bench\.js$/, '');
  const moduleStarted = performance.now();
  process.stdout.write(`\n# running ${file}\n`);
  const dir = await mkdtemp(join(tmpdir(), `decom-bench-${name}-`));
  const context: BenchContext = {
    quick,
    profile,
    dir,
    target: (row) => void targets.push(row),
    log: (line) => void process.stdout.write(`  [${name} +${fmt(secondsSince(moduleStarted), 1)} s] ${line}\n`),
  };
  try {
    const module = (await import(pathToFileURL(join(here, file)).href)) as { default: BenchModule };
    const section = await module.default(context);
    process.stdout.write(`${section}\n`);
    sections.push(section);
  } catch (error) {
    failures.push(name);
    process.stdout.write(`\nbench ${name} FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    // The children's logs say why (an engine that exited, a refused start): their last lines, and the folder is kept.
    for (const log of (await readdir(dir, { recursive: true })).filter((f) => f.endsWith('.log')).sort()) {
      const lines = (await readFile(join(dir, log), 'utf8')).trimEnd().split('\n').slice(-15);
      process.stdout.write(`\n--- ${join(dir, log)} (last ${lines.length} lines)\n${lines.map((l) => l.slice(0, 400)).join('\n')}\n`);
    }
    process.stdout.write(`\n(logs kept in ${dir})\n`);
  }
  if (!failures.includes(name)) await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  timings.push(`${name} ${fmt(secondsSince(moduleStarted))} s`);
}
const totalSeconds = secondsSince(started);
const loadAtEnd = loadAverage();
const table = targetsTable(targets, quick);
process.stdout.write(
  `\n## Targets\n\n${table}\n\nTotal ${fmt(totalSeconds)} s (${timings.join(', ')}); load average at the end ${loadAtEnd}.\n`,
);

if (failures.length > 0) {
  process.stdout.write(
    `\nbench: ${failures.length} module(s) failed: ${failures.join(', ')}${quick ? '' : '; docs/benchmarks.md left unchanged'}\n`,
  );
  process.exit(1);
}
if (quick) {
  process.stdout.write('\nbench --quick: every scenario ran (tiny sizes, figures not judged); docs/benchmarks.md not written\n');
  process.exit(0);
}

const environment = `Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model?.trim() ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB`;
const header = [
  '# Benchmarks',
  '',
  `Generated by \`npm run bench\`${profile ? ' --profile' : ''} on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC: ${environment}.`,
  `Load average (1, 5, 15 min) at the start: ${loadAtStart}; at the end: ${loadAtEnd}. Run time ${fmt(totalSeconds)} s (${timings.join(', ')}).`,
  'Each figure is printed next to its ceiling (a raw driver, server or bare route measured in the same run); on a shared',
  'box the absolutes move with the load, the ratios much less. `npm run bench -- --quick` (CI) only checks that every scenario runs.',
  '',
].join('\n');
const target = resolve(here, '../../../docs/benchmarks.md');
if (only.length === 0) {
  const targetsSection = ['## Targets', '', table].join('\n');
  await writeFile(target, `${header}\n${targetsSection}\n\n${sections.join('\n\n')}\n`);
  process.stdout.write('\nwrote docs/benchmarks.md\n');
} else {
  // `npm run bench -- <name>`: replace only those sections (by their `## ` heading) in the existing file.
  let text = await readFile(target, 'utf8').catch(() => `${header}\n`);
  for (const section of sections) {
    const heading = section.split('\n', 1)[0]!;
    const start = text.indexOf(`${heading}\n`);
    if (start < 0) {
      text = `${text.trimEnd()}\n\n${section}\n`;
      continue;
    }
    const next = text.indexOf('\n## ', start + heading.length);
    text = `${text.slice(0, start)}${section}\n${next < 0 ? '' : text.slice(next)}`;
  }
  await writeFile(target, text);
  process.stdout.write(
    `\nupdated ${sections.length} section(s) of docs/benchmarks.md (the Targets table is rewritten by full runs only)\n`,
  );
}
process.exit(0);
