/**
 * The operator rails on one resource of a running engine (docs/policies.md):
 * - `decom protect <kind> <id> [--reason r]`: `deletion_protection: true` (PATCH); `--clear --reason r` clears it
 *   (administrators, or operators where `authorization.deletion_protection.clear_role` allows; the reason is required).
 * - `decom abandon <kind> <id> <adapter> --reason r`: counts one adapter's cleanup as done without it
 *   (`POST …/{id}/adapters/{adapter}/abandon`, administrators; a forced `AdapterFinalized` and a leak inventory).
 * Exit 1 with the API's status and detail when it refuses (409 not Finalizing, 403, ...); 202 under the
 * two-person rule prints the recorded request.
 */
import type { Command } from 'commander';
import { bearerHeaders, engineDefaults, fetchEngine, withEngineOptions } from './engine-client.js';
import { pluralOf } from './kind-plural.js';
import { COMMAND_DESCRIPTIONS } from '../command-descriptions.js';

export interface RailsCommandIo {
  readonly out: (text: string) => void;
  readonly defaultApiUrl: () => string;
  readonly defaultTokenFile?: () => string | undefined;
}

const defaultIo: RailsCommandIo = {
  out: (text) => process.stdout.write(text),
  defaultApiUrl: () => engineDefaults().apiBaseUrl,
  defaultTokenFile: () => engineDefaults().apiTokenFile,
};

interface EngineCallOptions {
  readonly as?: string;
  readonly api?: string;
  readonly tokenFile?: string;
}

/** Sends one write to the resource's flat route and returns the answer. @throws Error `status detail` on a refusal. */
async function callResource(
  io: RailsCommandIo,
  options: EngineCallOptions,
  target: { kind: string; id: string; suffix: string },
  method: string,
  body: unknown,
): Promise<{ status: number; answer: Record<string, unknown> }> {
  const base = (options.api ?? io.defaultApiUrl()).replace(/\/+$/, '');
  const headers = {
    ...(await bearerHeaders(options.tokenFile ?? io.defaultTokenFile?.())),
    ...(options.as && { 'x-hyperfleet-identity': options.as }),
  };
  const plural = await pluralOf(base, target.kind, headers);
  const response = await fetchEngine(base, `/api/hyperfleet/v1/${plural}/${encodeURIComponent(target.id)}${target.suffix}`, {
    method,
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await response.json().catch(() => undefined)) as
    (Record<string, unknown> & { detail?: string; title?: string }) | undefined;
  if (!response.ok || !answer) throw new Error(`${response.status} ${answer?.detail ?? answer?.title ?? response.statusText}`);
  return { status: response.status, answer };
}

const requested = (answer: Record<string, unknown>) =>
  `a break-glass request was recorded for another administrator to approve: ${String(answer['request_id'])} (decom break-glass approve ${String(answer['request_id'])})\n`;

export function registerProtectCommand(program: Command, io: RailsCommandIo = defaultIo): void {
  withEngineOptions(
    program
      .command('protect')
      .argument('<kind>', 'resource kind or its plural (Cluster, clusters, NodePool, ...)')
      .argument('<id>', 'resource id')
      .description(COMMAND_DESCRIPTIONS.protect)
      .option('--clear', 'clear the protection instead (administrators; --reason required)')
      .option('--reason <reason>', 'why (recorded with the change)')
      .option('--as <identity>', 'identity sent as X-HyperFleet-Identity (engines without JWT)'),
  ).action(async (kind: string, id: string, options: EngineCallOptions & { clear?: boolean; reason?: string }) => {
    const body = {
      deletion_protection: options.clear !== true,
      ...(options.reason !== undefined && { deletion_protection_reason: options.reason }),
    };
    const { answer } = await callResource(io, options, { kind, id, suffix: '' }, 'PATCH', body);
    io.out(`${String(answer['kind'])} ${id}: deletion protection ${options.clear ? 'cleared' : 'set'}\n`);
  });
}

export function registerAbandonCommand(program: Command, io: RailsCommandIo = defaultIo): void {
  withEngineOptions(
    program
      .command('abandon')
      .argument('<kind>', 'resource kind or its plural (Cluster, clusters, NodePool, ...)')
      .argument('<id>', 'resource id (deleting)')
      .argument('<adapter>', 'the adapter whose cleanup is counted as done without it')
      .description(COMMAND_DESCRIPTIONS.abandon)
      .requiredOption('--reason <reason>', 'why (recorded on the forced AdapterFinalized)')
      .option('--as <identity>', 'identity sent as X-HyperFleet-Identity (engines without JWT)'),
  ).action(async (kind: string, id: string, adapter: string, options: EngineCallOptions & { reason: string }) => {
    const { status, answer } = await callResource(
      io,
      options,
      { kind, id, suffix: `/adapters/${encodeURIComponent(adapter)}/abandon` },
      'POST',
      { reason: options.reason },
    );
    io.out(
      status === 202
        ? requested(answer)
        : `${String(answer['kind'])} ${id}: adapter ${adapter} abandoned (forced Finalized); its known objects are in the leak inventory\n`,
    );
  });
}
