/**
 * `decom projections rebuild [name]`: replays the event log into the read models, with a progress bar.
 */
import { InvalidArgumentError, type Command } from 'commander';
import { SingleBar, Presets } from 'cli-progress';
import { loadAppConfig, type AppConfig } from '@decom/config';
import { COMMAND_DESCRIPTIONS } from '../command-descriptions.js';

export interface ProjectionsCommandIo {
  /** Where the bar and the summary go (default stderr for the bar, stdout for the summary). */
  readonly out: (line: string) => void;
  readonly barStream: NodeJS.WritableStream;
  readonly loadConfig: () => AppConfig;
}

const defaultIo: ProjectionsCommandIo = {
  out: (line) => process.stdout.write(`${line}\n`),
  barStream: process.stderr,
  loadConfig: () => loadAppConfig(),
};

export function registerProjectionsCommand(program: Command, io: ProjectionsCommandIo = defaultIo): void {
  const projections = program.command('projections').description(COMMAND_DESCRIPTIONS.projections);
  projections
    .command('rebuild [name]')
    .description('drop and replay read models from the event log (all, or the one named); stop the engine first')
    .option('--batch-size <n>', 'events per read-model transaction', (raw) => positiveInteger(raw), 500)
    .action(async (name: string | undefined, options: { batchSize: number }) => {
      // A ConfigError goes up as it is: main.ts prints it as invalid configuration and exits 2, as `decom start` does.
      const config: AppConfig = io.loadConfig();
      // cli-progress draws only on a TTY; redirected output gets the summary line alone.
      // The stores and projections load when a rebuild runs, not for `decom --help`.
      const { rebuildProjections, UnknownProjection } = await import('@decom/api');
      const bar = new SingleBar(
        {
          stream: io.barStream,
          format: '{name} |{bar}| {percentage}% | {value}/{total} positions | {duration_formatted}',
          hideCursor: true,
        },
        Presets.shades_classic,
      );
      let isStarted = false;
      try {
        const report = await rebuildProjections(config, {
          ...(name !== undefined ? { name } : {}),
          batchSize: options.batchSize,
          onProgress: (done, total) => {
            if (!isStarted) {
              bar.start(total, done, { name: name ?? 'all' });
              isStarted = true;
            }
            bar.setTotal(total);
            bar.update(done);
          },
        });
        bar.stop();
        io.out(`rebuilt ${report.projections.join(', ')} up to position ${report.position} in ${(report.durationMs / 1000).toFixed(1)} s`);
      } catch (error) {
        bar.stop();
        if (error instanceof UnknownProjection) throw new Error(error.message);
        throw error;
      }
    });
}

function positiveInteger(raw: string): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new InvalidArgumentError(`must be a positive integer, got "${raw}"`);
  return value;
}
