/**
 * What the CLI commands that call a running engine share (`decom history`, `decom leaks`, `decom delete`): the `--api` and
 * `--token-file` options, the bearer header from the token file, and a fetch whose failure names the URL it
 * tried and how to point elsewhere (Node's own message is only `fetch failed`).
 */
import { InvalidArgumentError, type Command } from 'commander';
import { readFile } from 'node:fs/promises';
import { loadAppConfig } from '@decom/config/app-config';

/**
 * The engine URL and token file a client command uses without `--api`/`--token-file`: `$DECOM_API_URL` (else
 * `http://127.0.0.1:$PORT`) and `$DECOM_TOKEN_FILE` (absolute), read by the same function as `decom start`.
 * Only the environment reader is imported, not the config barrel, whose YAML and CEL parsers would
 * cost a client command about 200 ms of CPU before its first request.
 * @throws ConfigError naming the variable (e.g. `PORT: must be an integer …`).
 */
export function engineDefaults(env: Readonly<Record<string, string | undefined>> = process.env): {
  apiBaseUrl: string;
  apiTokenFile?: string;
} {
  const config = loadAppConfig(env);
  return { apiBaseUrl: config.apiBaseUrl, ...(config.apiTokenFile && { apiTokenFile: config.apiTokenFile }) };
}

/** How to send a bearer token, the one fix for a 401 from an engine with JWT on. */
export const TOKEN_HINT = 'pass --token-file FILE or set DECOM_TOKEN_FILE';

/**
 * Adds `--api <url>` and `--token-file <path>` (read as `options.api`, `options.tokenFile`). A `--api` that is
 * not an http(s) URL is a usage error (exit 2), found before any request.
 */
export function withEngineOptions(command: Command): Command {
  return command
    .option('--api <url>', 'engine base URL (default $DECOM_API_URL or http://127.0.0.1:$PORT)', engineUrl)
    .option('--token-file <path>', 'bearer token for an engine with JWT on (default $DECOM_TOKEN_FILE)');
}

/** commander parser of `--api`: an http(s) URL, else `InvalidArgumentError` (a usage error, exit 2). */
export function engineUrl(value: string): string {
  const protocol = URL.canParse(value) ? new URL(value).protocol : undefined;
  if (protocol !== 'http:' && protocol !== 'https:') {
    throw new InvalidArgumentError(`must be an http(s) URL such as http://127.0.0.1:8000, got ${JSON.stringify(value)}`);
  }
  return value;
}

/**
 * `Authorization: Bearer …` from `tokenFile` (read now), or no header without one.
 * @throws InvalidArgumentError (unusable input, exit 2) naming the file when it cannot be read or is empty.
 */
export async function bearerHeaders(tokenFile: string | undefined): Promise<Record<string, string>> {
  if (!tokenFile) return {};
  // One read for one command: the adapters' rotating token source (@decom/adapter) is not needed here, and
  // loading that library would cost a client command most of a second of CPU.
  const token = await readFile(tokenFile, 'utf8').then(
    (text) => text.trim(),
    (error: Error) => {
      throw new InvalidArgumentError(`cannot read the API token file ${tokenFile}: ${error.message}`);
    },
  );
  if (token === '') throw new InvalidArgumentError(`cannot read the API token file ${tokenFile}: the file is empty`);
  return { authorization: `Bearer ${token}` };
}

/**
 * How long a client command waits for the engine's answer, ms: the API answers within seconds even while a
 * dependency is down (503), so a silence this long is a process that accepted the connection and hung.
 */
export const ENGINE_ANSWER_TIMEOUT_MS = 30_000;

/**
 * `fetch(base + path)`; a connection failure throws `cannot reach the engine at <base> (<code>): …`, and a 401
 * throws `401 <detail>` with how to pass a token, since that is the one fix for it;
 * no answer within `timeoutMs` throws `the engine at <base> gave no answer within …`.
 */
export async function fetchEngine(
  base: string,
  path: string,
  init: RequestInit = {},
  timeoutMs = ENGINE_ANSWER_TIMEOUT_MS,
): Promise<Response> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
  const response = await fetch(`${base}${path}`, { ...init, signal }).catch((error: unknown) => {
    if (timeout.aborted)
      throw new Error(`the engine at ${base} gave no answer within ${timeoutMs / 1000} s (is it stuck? check its log and /readyz)`);
    throw new Error(unreachable(base, error));
  });
  if (response.status === 401) {
    const problem = (await response.json().catch(() => undefined)) as { detail?: string; title?: string } | undefined;
    const sent = new Headers(init.headers).has('authorization');
    throw new Error(
      `401 ${problem?.detail ?? problem?.title ?? 'Unauthorized'}: ` +
        (sent
          ? 'the engine refused the bearer token in the token file (expired, or not from a trusted issuer?)'
          : `this engine needs a bearer token: ${TOKEN_HINT}`),
    );
  }
  return response;
}

/** `fetch failed` says nothing: name the URL tried, the cause, and how to point elsewhere. */
function unreachable(base: string, error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const why = cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
  return `cannot reach the engine at ${base} (${why}): start one with \`decom start\`, or point elsewhere with --api URL or DECOM_API_URL`;
}
