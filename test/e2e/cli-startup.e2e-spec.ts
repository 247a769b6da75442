/**
 * A `decom` call loads only the command it runs (apps/cli/src/main.ts): `--version` and `--help` load no
 * library; a client command (`history`, `delete`, `leaks`, `jobs` through the API) loads of ours only the
 * config library's environment reader (`app-config.js`, for `$DECOM_API_URL` and `$DECOM_TOKEN_FILE`),
 * not its YAML and CEL parsers, nor the engine. Checked through
 * the built binary with an ESM load hook that records every module URL the process loads; the CPU cost this
 * saves is measured in the benchmarks, not here.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureBuilt, runBuiltDecom } from './support/built-decom.js';

describe('decom start-up loads only the command that runs', () => {
  let dir: string;
  let register: string;

  beforeAll(() => {
    ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), 'decom-startup-'));
    writeFileSync(
      join(dir, 'hooks.mjs'),
      "import { appendFileSync } from 'node:fs';\n" +
        'export async function load(url, context, next) { appendFileSync(process.env.LOADED_LOG, url + "\\n"); return next(url, context); }\n',
    );
    register = join(dir, 'register.mjs');
    writeFileSync(
      register,
      `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(join(dir, 'hooks.mjs')).href)});\n`,
    );
  }, 180_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const loadedBy = async (
    args: string[],
    env: Record<string, string> = {},
  ): Promise<{ code: number | null; libs: string[]; commands: string[]; ours: string[] }> => {
    const log = join(dir, `loaded-${args.join('_').replace(/[^a-z-]/gi, '')}.txt`);
    writeFileSync(log, '');
    const run = await runBuiltDecom(args, { ...env, NODE_OPTIONS: `--import=${pathToFileURL(register).href}`, LOADED_LOG: log });
    const urls = readFileSync(log, 'utf8').split('\n').filter(Boolean);
    const libs = [
      ...new Set(urls.map((u) => /\/dist\/(libs\/[a-z-]+|apps\/(?:api|worker))\//.exec(u)?.[1]).filter((m): m is string => !!m)),
    ].sort();
    const commands = urls.map((u) => /\/commands\/([a-z-]+)\.command\.js$/.exec(u)?.[1]).filter((m): m is string => !!m);
    // Every module of ours outside apps/cli, e.g. `libs/config/src/app-config.js`.
    const ours = [
      ...new Set(urls.map((u) => /\/dist\/((?:libs|apps\/(?:api|worker))\/.+\.js)$/.exec(u)?.[1]).filter((m): m is string => !!m)),
    ].sort();
    return { code: run.code, libs, commands, ours };
  };

  it('--version and --help load no library and no command module', async () => {
    for (const args of [['--version'], ['--help']]) {
      expect({ args, ...(await loadedBy(args)) }).toEqual({ args, code: 0, libs: [], commands: [], ours: [] });
    }
  });

  it('a client command loads its own module and only the environment reader of ours', async () => {
    const token = join(dir, 'token.txt');
    writeFileSync(token, 'not-a-real-token\n');
    const unreachable = 'http://127.0.0.1:1';
    for (const args of [
      ['history', 'some-id', '--api', unreachable, '--token-file', token],
      ['history', 'some-id'],
      ['delete', 'cluster', 'some-id', '--api', unreachable],
      ['leaks', '--token-file', token],
      ['jobs', 'failed', '--api', unreachable],
    ]) {
      // DECOM_API_URL and DECOM_TOKEN_FILE as defaults: read by the same function as `decom start`.
      const run = await loadedBy(args, { DECOM_API_URL: unreachable, DECOM_TOKEN_FILE: token });
      expect({ args, ...run }).toEqual({
        args,
        code: 1,
        libs: ['libs/config'],
        commands: [args[0]],
        ours: ['libs/config/src/app-config.js', 'libs/config/src/identity.js'],
      });
    }
    const help = await loadedBy(['help', 'delete']);
    expect(help.commands).toEqual(['delete']);
  });

  it('the engine command still loads the engine (the stand-ins do not hide it)', async () => {
    const start = await loadedBy(['start', '--help']);
    expect(start.commands).toEqual(['start']);
    expect(start.code).toBe(0);
  });
});
