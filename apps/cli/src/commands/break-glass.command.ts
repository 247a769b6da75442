/**
 * `decom break-glass list|approve|reject`: the two-person rule's approval queue of a running engine
 * (`/api/decom/v1/break-glass-requests`, docs/policies.md "Two-person rule for break-glass actions").
 * `list [--status Pending]` prints one line per request:
 * `<request_id>  Pending  force_delete Cluster/<id> g2  by alice@example.com  expires 2026-…  "reason"`;
 * `approve <request_id> [--reason R]` (an administrator other than the requester) runs the action;
 * `reject <request_id> --reason R` refuses it. Exit 1 on an API error, with its detail.
 */
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { bearerHeaders, engineDefaults, fetchEngine, withEngineOptions } from './engine-client.js';
import { COMMAND_DESCRIPTIONS } from '../command-descriptions.js';

interface RequestJson {
  readonly request_id: string;
  readonly action: string;
  readonly target: { readonly kind: string; readonly id: string };
  readonly generation: number;
  readonly reason: string;
  readonly requested_by: string;
  readonly expires_at: string;
  readonly status: string;
  readonly decision?: { readonly by: string; readonly reason?: string };
}

export interface BreakGlassCommandIo {
  readonly out: (text: string) => void;
  readonly defaultApiUrl: () => string;
  /** Sent as `X-HyperFleet-Identity` (engines without JWT). */
  readonly identity?: string;
  readonly defaultTokenFile?: () => string | undefined;
}

const defaultIo: BreakGlassCommandIo = {
  out: (text) => process.stdout.write(text),
  defaultApiUrl: () => engineDefaults().apiBaseUrl,
  defaultTokenFile: () => engineDefaults().apiTokenFile,
};

const STATUSES = ['Pending', 'Approved', 'Rejected', 'Voided', 'Expired'];

/** One request on one line (see the file's docstring). */
export function requestLine(r: RequestJson): string {
  const target = r.action === 'delete_leaks' ? 'leaked objects' : `${r.target.kind}/${r.target.id} g${r.generation}`;
  const decided = r.decision ? `  ${r.status.toLowerCase()} by ${r.decision.by}` : '';
  return `${r.request_id}  ${r.status}  ${r.action} ${target}  by ${r.requested_by}  expires ${r.expires_at}  ${JSON.stringify(r.reason)}${decided}`;
}

interface ClientOptions {
  readonly api?: string;
  readonly tokenFile?: string;
  readonly as?: string;
  readonly json?: boolean;
}

export function registerBreakGlassCommands(program: Command, io: BreakGlassCommandIo = defaultIo): void {
  const group = program.command('break-glass').description(COMMAND_DESCRIPTIONS['break-glass']);
  const client = (command: Command) =>
    withEngineOptions(
      command
        .option('--json', 'print the API answer as JSON')
        .option('--as <identity>', 'identity sent as X-HyperFleet-Identity (engines without JWT)'),
    );

  const call = async (options: ClientOptions, method: 'GET' | 'POST', path: string, body?: object): Promise<unknown> => {
    const base = (options.api ?? io.defaultApiUrl()).replace(/\/+$/, '');
    const identity = options.as ?? io.identity;
    const response = await fetchEngine(base, `/api/decom/v1/break-glass-requests${path}`, {
      method,
      headers: {
        ...(await bearerHeaders(options.tokenFile ?? io.defaultTokenFile?.())),
        ...(identity && { 'x-hyperfleet-identity': identity }),
        ...(body && { 'content-type': 'application/json' }),
      },
      ...(body && { body: JSON.stringify(body) }),
    });
    const answer = (await response.json().catch(() => undefined)) as { detail?: string; title?: string } | undefined;
    if (!response.ok || !answer) throw new Error(`${response.status} ${answer?.detail ?? answer?.title ?? response.statusText}`);
    return answer;
  };
  const print = (options: ClientOptions, answer: unknown, lines: () => string[]) =>
    io.out(
      options.json
        ? `${JSON.stringify(answer, null, 2)}\n`
        : lines()
            .map((line) => `${line}\n`)
            .join(''),
    );

  client(
    group
      .command('list')
      .description('list requests, newest first')
      .option('--status <status>', `one of ${STATUSES.join(', ')}`)
      .option('--limit <n>', 'at most this many (1..1000)', '100'),
  ).action(async (options: ClientOptions & { status?: string; limit: string }) => {
    if (options.status && !STATUSES.includes(options.status))
      throw new InvalidArgumentError(`--status must be one of ${STATUSES.join(', ')}`);
    const query = new URLSearchParams({ limit: options.limit, ...(options.status && { status: options.status }) });
    const answer = (await call(options, 'GET', `?${query}`)) as { total: number; items: RequestJson[] };
    print(options, answer, () => [`${answer.total} break-glass request(s)`, ...answer.items.map(requestLine)]);
  });
  client(
    group
      .command('approve')
      .argument('<request_id>')
      .description('approve (an administrator other than the requester): the action runs')
      .option('--reason <text>', 'why (recorded)'),
  ).action(async (requestId: string, options: ClientOptions & { reason?: string }) => {
    const answer = (await call(
      options,
      'POST',
      `/${encodeURIComponent(requestId)}/approve`,
      options.reason ? { reason: options.reason } : {},
    )) as { request: RequestJson };
    print(options, answer, () => [requestLine(answer.request)]);
  });
  client(
    group
      .command('reject')
      .argument('<request_id>')
      .description('reject: nothing runs')
      .option('--reason <text>', 'why (required, recorded)'),
  ).action(async (requestId: string, options: ClientOptions & { reason?: string }) => {
    if (!options.reason?.trim()) throw new InvalidArgumentError('reject needs --reason "<why>" (it is recorded)');
    const answer = (await call(options, 'POST', `/${encodeURIComponent(requestId)}/reject`, { reason: options.reason })) as RequestJson;
    print(options, answer, () => [requestLine(answer)]);
  });
}
