/**
 * `decom leaks`: objects in the managed cluster whose Decom owner marker names a resource that no longer
 * exists, from a running engine's `GET /api/decom/v1/leaks`, one line each:
 * `ConfigMap ns/name  uid=…  owner=Cluster/<id>/validation`. `--delete --reason R` removes them through
 * `POST /api/decom/v1/leaks/delete` (administrators only), recorded as `LeakedObjectsDeleted` in each former
 * owner's history (`decom history <id>`). Exit 1 on an API error, with its detail.
 */
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { bearerHeaders, fetchEngine, withEngineOptions, engineDefaults } from './engine-client.js';
import { COMMAND_DESCRIPTIONS } from '../command-descriptions.js';

interface LeakJson {
  readonly kind: string;
  readonly namespace?: string;
  readonly name: string;
  readonly uid?: string;
  readonly owner: { readonly kind: string; readonly id: string; readonly adapter: string };
}

export interface LeaksCommandIo {
  readonly out: (text: string) => void;
  readonly defaultApiUrl: () => string;
  /** Sent as `X-HyperFleet-Identity` (who deletes). */
  readonly identity?: string;
  /** Bearer token file for an engine with JWT on (default: `DECOM_TOKEN_FILE`). */
  readonly defaultTokenFile?: () => string | undefined;
}

const defaultIo: LeaksCommandIo = {
  out: (text) => process.stdout.write(text),
  defaultApiUrl: () => engineDefaults().apiBaseUrl,
  defaultTokenFile: () => engineDefaults().apiTokenFile,
};

/** `ConfigMap ns/name  uid=…  owner=Cluster/<id>/validation` */
export function leakLine(leak: LeakJson): string {
  return [
    `${leak.kind} ${leak.namespace ? `${leak.namespace}/` : ''}${leak.name}`,
    ...(leak.uid ? [`uid=${leak.uid}`] : []),
    `owner=${leak.owner.kind}/${leak.owner.id}/${leak.owner.adapter}`,
  ].join('  ');
}

export function registerLeaksCommand(program: Command, io: LeaksCommandIo = defaultIo): void {
  withEngineOptions(
    program
      .command('leaks')
      .description(COMMAND_DESCRIPTIONS.leaks)
      .option('--json', 'print the API answer as JSON')
      .option('--delete', 'delete the leaked objects (administrators only); needs --reason')
      .option('--reason <text>', "why they are deleted (recorded in each former owner's history)")
      .option('--as <identity>', 'identity sent as X-HyperFleet-Identity (engines without JWT)'),
  ).action(async (options: { json?: boolean; delete?: boolean; reason?: string; as?: string; api?: string; tokenFile?: string }) => {
    if (options.delete && !options.reason?.trim()) throw new InvalidArgumentError('--delete needs --reason "<why>" (it is recorded)');
    const base = (options.api ?? io.defaultApiUrl()).replace(/\/+$/, '');
    const identity = options.as ?? io.identity;
    const auth = await bearerHeaders(options.tokenFile ?? io.defaultTokenFile?.());
    const response = await fetchEngine(base, `/api/decom/v1/leaks${options.delete ? '/delete' : ''}`, {
      method: options.delete ? 'POST' : 'GET',
      headers: {
        ...auth,
        ...(identity && { 'x-hyperfleet-identity': identity }),
        ...(options.delete && { 'content-type': 'application/json' }),
      },
      ...(options.delete && { body: JSON.stringify({ reason: options.reason }) }),
    });
    const answer = (await response.json().catch(() => undefined)) as
      { total: number; items: LeakJson[]; last_scan?: unknown; detail?: string; title?: string } | undefined;
    if (!response.ok || !answer || !Array.isArray(answer.items))
      throw new Error(`${response.status} ${answer?.detail ?? answer?.title ?? response.statusText}`);
    if (options.json) {
      io.out(`${JSON.stringify(answer, null, 2)}\n`);
      return;
    }
    io.out(`${answer.total} leaked object(s)${options.delete ? ' deleted' : ''}\n`);
    for (const leak of answer.items) io.out(`${leakLine(leak)}\n`);
  });
}
