/**
 * `decom delete <kind> <id>`: a DELETE on a running engine (`DELETE /api/hyperfleet/v1/{plural}/{id}`, the flat
 * route for a child kind). `--dry-run` sends `?dryRun=All` and prints the plan, one line per resource in
 * hard-delete order (children before their parent), or the API answer with `--json`; nothing is recorded.
 * Exit 1 on an API error (a refusal: the DELETE's 409, with its detail; 429 past the deletion budget, which an
 * administrator passes with `--budget-override <reason>`), as the real delete fails.
 */
import type { Command } from 'commander';
import { bearerHeaders, fetchEngine, withEngineOptions, engineDefaults } from './engine-client.js';
import { pluralOf } from './kind-plural.js';
import { COMMAND_DESCRIPTIONS } from '../command-descriptions.js';

interface PreviewedJson {
  readonly id: string;
  readonly kind: string;
  readonly name: string;
  readonly generation: number;
  readonly deletion_policy: string;
  readonly deletion_policy_source: string;
  readonly deletion_propagation: string;
  readonly required_adapters: readonly string[];
  /** What the plan implies beyond the record (an Orphan resource under a Delete ancestor). */
  readonly notes?: readonly string[];
}

interface PreviewJson {
  readonly target: { readonly id: string; readonly kind: string; readonly name?: string };
  readonly outcome: 'WouldDelete' | 'AlreadyDeleting';
  readonly resources: readonly PreviewedJson[];
}

export interface DeleteCommandIo {
  readonly out: (text: string) => void;
  readonly defaultApiUrl: () => string;
  /** Sent as `X-HyperFleet-Identity` (who deletes) on engines without JWT. */
  readonly identity?: string;
  readonly defaultTokenFile?: () => string | undefined;
}

const defaultIo: DeleteCommandIo = {
  out: (text) => process.stdout.write(text),
  defaultApiUrl: () => engineDefaults().apiBaseUrl,
  defaultTokenFile: () => engineDefaults().apiTokenFile,
};

/** `1  NodePool  pool-a  <id>  policy=Delete (inherited from Cluster/<id>)  propagation=Foreground  adapters=np-configmap  generation=2` */
export function previewLine(index: number, r: PreviewedJson): string {
  return [
    String(index),
    r.kind,
    r.name,
    r.id,
    `policy=${r.deletion_policy} (${r.deletion_policy_source})`,
    `propagation=${r.deletion_propagation}`,
    `adapters=${r.required_adapters.join(',') || '-'}`,
    `generation=${r.generation}`,
  ].join('  ');
}

export function registerDeleteCommand(program: Command, io: DeleteCommandIo = defaultIo): void {
  withEngineOptions(
    program
      .command('delete')
      .argument('<kind>', 'resource kind or its plural (Cluster, clusters, NodePool, ...)')
      .argument('<id>', 'resource id')
      .description(COMMAND_DESCRIPTIONS.delete)
      .option('--dry-run', "preview (Kubernetes' dryRun=All): print the resources it would mark, in hard-delete order")
      .option('--propagation-policy <policy>', "Foreground or Background (default: each kind's configured propagation)")
      .option('--delete-for-move', 'delete_for_move=true (allowed while every referrer is paused)')
      .option('--budget-override <reason>', 'go past the deletion budget (limits.deletions; administrators): the reason is recorded')
      .option('--json', 'print the API answer as JSON')
      .option('--as <identity>', 'identity sent as X-HyperFleet-Identity (engines without JWT)'),
  ).action(
    async (
      kind: string,
      id: string,
      options: {
        dryRun?: boolean;
        propagationPolicy?: string;
        deleteForMove?: boolean;
        budgetOverride?: string;
        json?: boolean;
        as?: string;
        api?: string;
        tokenFile?: string;
      },
    ) => {
      const base = (options.api ?? io.defaultApiUrl()).replace(/\/+$/, '');
      const identity = options.as ?? io.identity;
      const headers = {
        ...(await bearerHeaders(options.tokenFile ?? io.defaultTokenFile?.())),
        ...(identity && { 'x-hyperfleet-identity': identity }),
      };
      const plural = await pluralOf(base, kind, headers);
      const query = new URLSearchParams({
        ...(options.dryRun && { dryRun: 'All' }),
        ...(options.propagationPolicy && { propagationPolicy: options.propagationPolicy }),
        ...(options.deleteForMove && { delete_for_move: 'true' }),
        ...(options.budgetOverride !== undefined && { deletion_budget_override: options.budgetOverride }),
      }).toString();
      const response = await fetchEngine(base, `/api/hyperfleet/v1/${plural}/${encodeURIComponent(id)}${query ? `?${query}` : ''}`, {
        method: 'DELETE',
        headers,
      });
      const answer = (await response.json().catch(() => undefined)) as
        (Record<string, unknown> & { detail?: string; title?: string }) | undefined;
      if (!response.ok || !answer) {
        const dryRun = answer?.['dry_run'] === true ? ' (dry run: nothing was recorded)' : '';
        throw new Error(`${response.status} ${answer?.detail ?? answer?.title ?? response.statusText}${dryRun}`);
      }
      if (options.json) {
        io.out(`${JSON.stringify(answer, null, 2)}\n`);
        return;
      }
      if (!options.dryRun) {
        io.out(
          `${String(answer['kind'])} ${id} marked for deletion (generation ${String(answer['generation'])}, deleted_time ${String(answer['deleted_time'])})\n`,
        );
        return;
      }
      const preview = answer as unknown as PreviewJson;
      const named = `${preview.target.kind} ${preview.target.id}${preview.target.name ? ` (${preview.target.name})` : ''}`;
      if (preview.outcome === 'AlreadyDeleting') {
        io.out(`dry run: ${named} is already deleting; a DELETE would record nothing\n`);
        return;
      }
      io.out(`dry run: DELETE ${named} would mark ${preview.resources.length} resource(s), in hard-delete order; nothing was recorded\n`);
      preview.resources.forEach((r, i) =>
        io.out(`${previewLine(i + 1, r)}\n${(r.notes ?? []).map((note) => `   note: ${note}\n`).join('')}`),
      );
    },
  );
}
