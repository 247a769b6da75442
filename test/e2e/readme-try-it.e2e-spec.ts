/**
 * The README's "Try it" block, run as written: extracted from README.md (the first ```sh block under
 * "## Try it"), executed by bash against `decom start` (the built binary `npm start` runs) with the shipped
 * adapters, on a free PORT and DECOM_METRICS_PORT, as the README says the commands read them. A change to
 * the README's commands, or to the API they call, that breaks one of them fails here.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '../support/free-port.js';
import { DECOM_BIN, ensureBuilt, runShell } from './support/built-decom.js';

/** The commands of the first ```sh block after `heading` in `markdown`. */
function shellBlockAfter(markdown: string, heading: string): string {
  const at = markdown.indexOf(`\n${heading}\n`);
  if (at < 0) throw new Error(`README.md has no "${heading}" section`);
  const block = /```sh\n([\s\S]*?)\n```/.exec(markdown.slice(at));
  if (!block) throw new Error(`README.md's "${heading}" section has no sh block`);
  return block[1]!;
}

const TOOLS = ['curl', 'jq', 'grep'];
const missing = TOOLS.filter((tool) => !['/usr/bin', '/bin', '/usr/local/bin'].some((dir) => existsSync(join(dir, tool))));
// The block needs curl and jq as a reader's shell has them; .ci/run's Debian image has both.
if (missing.length > 0)
  console.warn(`skipping README "Try it": ${missing.join(', ')} not installed (apt-get install ${missing.join(' ')})`);
const describeWithTools = missing.length === 0 ? describe : describe.skip;

describeWithTools('README "Try it", run as written against decom start', () => {
  const script = shellBlockAfter(readFileSync(resolve('README.md'), 'utf8'), '## Try it');
  let dir: string;
  let engine: ChildProcess;
  let port: number;
  let metricsPort: number;

  beforeAll(async () => {
    ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), 'decom-readme-'));
    port = await freePort();
    metricsPort = await freePort();
    engine = spawn(process.execPath, [DECOM_BIN, 'start'], {
      cwd: resolve('.'),
      env: {
        PATH: process.env['PATH'] ?? '',
        HOME: process.env['HOME'] ?? '',
        PORT: String(port),
        DECOM_METRICS_PORT: String(metricsPort),
        DECOM_DATA_DIR: join(dir, 'data'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    engine.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    engine.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const deadline = Date.now() + 60_000;
    while (!output.includes('Decom is running') && engine.exitCode === null) {
      if (Date.now() > deadline) throw new Error(`decom start did not come up within 60 s:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    if (engine.exitCode !== null) throw new Error(`decom start exited ${engine.exitCode}:\n${output}`);
  }, 180_000);

  afterAll(async () => {
    if (engine && engine.exitCode === null) {
      engine.kill('SIGTERM');
      await once(engine, 'exit');
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('every command succeeds and prints what its comment promises', async () => {
    // -e and pipefail: a command of the block that fails (curl, jq on a non-JSON answer, a grep that finds
    // nothing) fails the test; -x names each command in stderr.
    const run = await runShell(
      `set -eo pipefail -x\n${script}`,
      { PORT: String(port), DECOM_METRICS_PORT: String(metricsPort) },
      { timeoutMs: 60_000 },
    );
    expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr }).toEqual({ code: 0, stderr: '' });
    const id = /^\+ ID=(\S+)$/m.exec(run.stderr)?.[1];
    expect(id).toMatch(/^[A-Za-z0-9-]{8,}$/);
    // The nodepool POST prints the created nodepool; the condition list has objects {type, status, reason}.
    expect(run.stdout).toMatch(/"kind":"NodePool"/);
    expect(run.stdout).toMatch(/"type": "Reconciled"/);
    // DELETE → 202 and the trace id header.
    expect(run.stdout).toMatch(/^HTTP\/1\.1 202/m);
    expect(run.stdout).toMatch(/^x-request-id: \S+/im);
    // The history names the deletion and who created the cluster.
    expect(run.stdout).toContain('"type": "DeletionRequested"');
    expect(run.stdout).toContain('"caller": "you@example.com"');
    expect(run.stdout).toMatch(/^decom_deletions\S* /m);
  }, 90_000);
});
