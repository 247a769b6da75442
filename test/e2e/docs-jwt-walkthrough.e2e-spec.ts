/**
 * docs/security.md "To try JWT locally", run as written: the sh block is extracted from the doc and run by
 * bash in the repository folder, `npm start &` included, on a free PORT and DECOM_METRICS_PORT with the data
 * folder in a temporary one. The key set, token and server config must land in `$DECOM_TRY`, not in the work
 * tree, and `whoami` must answer for the signed token's identity.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '../support/free-port.js';
import { ensureBuilt } from './support/built-decom.js';

/** The first complete JSON object at the start of `line`, or undefined. */
function firstJsonObject(line: string): unknown {
  for (let end = line.indexOf('}'); end >= 0; end = line.indexOf('}', end + 1)) {
    try {
      return JSON.parse(line.slice(0, end + 1));
    } catch {
      // not complete yet: try the next closing brace
    }
  }
  return undefined;
}

/** The first ```sh block after the line containing `marker`, its indentation removed. */
function shellBlockAfter(markdown: string, marker: string): string {
  const at = markdown.indexOf(marker);
  if (at < 0) throw new Error(`docs/security.md has no "${marker}"`);
  const block = /\n( *)```sh\n([\s\S]*?)\n *```/.exec(markdown.slice(at));
  if (!block) throw new Error(`docs/security.md has no sh block after "${marker}"`);
  const indent = block[1]!.length;
  return block[2]!
    .split('\n')
    .map((line) => line.slice(indent))
    .join('\n');
}

const missing = ['curl'].filter((tool) => !['/usr/bin', '/bin', '/usr/local/bin'].some((dir) => existsSync(join(dir, tool))));
if (missing.length > 0)
  console.warn(`skipping docs/security.md's JWT walkthrough: ${missing.join(', ')} not installed (apt-get install ${missing.join(' ')})`);
const describeWithTools = missing.length === 0 ? describe : describe.skip;

describeWithTools("docs/security.md's JWT walkthrough, run as written", () => {
  const script = shellBlockAfter(readFileSync(resolve('docs/security.md'), 'utf8'), 'To try JWT locally');
  let dir: string;

  beforeAll(() => {
    ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), 'decom-jwt-walkthrough-'));
  }, 180_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes its files to $DECOM_TRY and whoami answers for the signed identity', async () => {
    const outputFile = join(dir, 'output.txt');
    const output = openSync(outputFile, 'w');
    // Its own process group: `npm start &` outlives the script, and the whole group is stopped below.
    const shell = spawn('bash', ['-c', `set -eo pipefail\n${script}\nprintf '\\nDECOM_TRY=%s\\n' "$DECOM_TRY"`], {
      cwd: resolve('.'),
      env: {
        PATH: process.env['PATH'] ?? '',
        HOME: process.env['HOME'] ?? '',
        TMPDIR: dir,
        PORT: String(await freePort()),
        DECOM_METRICS_PORT: String(await freePort()),
        DECOM_DATA_DIR: join(dir, 'data'),
      },
      stdio: ['ignore', output, output],
      detached: true,
    });
    closeSync(output);
    const timer = setTimeout(() => process.kill(-shell.pid!, 'SIGKILL'), 90_000);
    const [code] = (await once(shell, 'exit')) as [number | null];
    clearTimeout(timer);
    await stopGroup(shell.pid!);
    const text = readFileSync(outputFile, 'utf8');
    expect({ code, text: code === 0 ? '' : text }).toEqual({ code: 0, text: '' });
    // The engine's own log lines share the output (the access log names the caller too), and curl's answer ends
    // without a newline, so a log line may follow it on the same line: take the first whole JSON object there.
    const line = text.split('\n').find((l) => l.startsWith('{"') && l.includes('you@example.com') && l.includes('"roles"'));
    expect(line).toBeDefined();
    expect(firstJsonObject(line!)).toMatchObject({ roles: expect.arrayContaining(['admin']) });
    const tryDir = /^DECOM_TRY=(.+)$/m.exec(text)?.[1];
    expect(tryDir?.startsWith(dir)).toBe(true);
    for (const name of ['jwks.json', 'token.txt', 'server.yaml']) {
      expect(existsSync(join(tryDir!, name))).toBe(true);
      expect(existsSync(resolve(name))).toBe(false);
    }
  }, 120_000);
});

/** SIGTERM to the process group (npm and the engine it started), SIGKILL if it is still there after 15 s. */
async function stopGroup(pgid: number): Promise<void> {
  const alive = () => {
    try {
      process.kill(-pgid, 0);
      return true;
    } catch {
      return false;
    }
  };
  if (alive()) process.kill(-pgid, 'SIGTERM');
  const deadline = Date.now() + 15_000;
  while (alive() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  if (alive()) process.kill(-pgid, 'SIGKILL');
}
