/**
 * `decom history <id>`: a resource's history (also after hard or force delete) from a running engine's
 * `GET /api/hyperfleet/v1/resources/{id}/events`, one readable line per event, or the JSON with `--json`.
 */
import type { Command } from 'commander';
import { historyLine, type HistoryEntryJson } from '../history/history-lines.js';
import { bearerHeaders, fetchEngine, withEngineOptions, engineDefaults } from './engine-client.js';
import { COMMAND_DESCRIPTIONS } from '../command-descriptions.js';

export interface HistoryCommandIo {
  readonly out: (text: string) => void;
  /** Base URL of the engine (default: `DECOM_API_URL`, else http://127.0.0.1:$PORT). */
  readonly defaultApiUrl: () => string;
  /** Bearer token file for an engine with JWT on (default: `DECOM_TOKEN_FILE`). */
  readonly defaultTokenFile?: () => string | undefined;
}

const defaultIo: HistoryCommandIo = {
  out: (text) => process.stdout.write(text),
  defaultApiUrl: () => engineDefaults().apiBaseUrl,
  defaultTokenFile: () => engineDefaults().apiTokenFile,
};

export function registerHistoryCommand(program: Command, io: HistoryCommandIo = defaultIo): void {
  withEngineOptions(
    program
      .command('history')
      .argument('<id>', 'resource id (any kind)')
      .description(COMMAND_DESCRIPTIONS.history)
      .option('--json', 'print the API answer as JSON'),
  ).action(async (id: string, options: { json?: boolean; api?: string; tokenFile?: string }) => {
    const base = (options.api ?? io.defaultApiUrl()).replace(/\/+$/, '');
    const tokenFile = options.tokenFile ?? io.defaultTokenFile?.();
    const headers = await bearerHeaders(tokenFile);
    // The events endpoint pages (size ≤ 1000): read every page.
    let body: { kind: string; stream: string; total: number; items: HistoryEntryJson[] } | undefined;
    for (let page = 1; !body || body.items.length < body.total; page += 1) {
      const response = await fetchEngine(base, `/api/hyperfleet/v1/resources/${encodeURIComponent(id)}/events?page=${page}&size=1000`, {
        headers,
      });
      const answer = (await response.json().catch(() => undefined)) as
        { kind: string; stream: string; total: number; items: HistoryEntryJson[] } | { detail?: string; title?: string } | undefined;
      if (!response.ok || !answer || !('items' in answer)) {
        const problem = answer as { detail?: string; title?: string } | undefined;
        throw new Error(`${response.status} ${problem?.detail ?? problem?.title ?? response.statusText}`);
      }
      if (body && answer.items.length === 0) break;
      body = body ? { ...answer, items: [...body.items, ...answer.items] } : answer;
    }
    if (options.json) {
      io.out(`${JSON.stringify(body, null, 2)}\n`);
      return;
    }
    io.out(`${body.kind} ${id} (stream ${body.stream}, ${body.total} events)\n`);
    for (const entry of body.items) io.out(`${historyLine(entry)}\n`);
  });
}
