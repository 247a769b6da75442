import type { Command } from 'commander';
import pino from 'pino';
import { ConfigError, EntitiesConfigError, loadAppConfig } from '@decom/config';
import { startEngine } from '../engine/engine.js';

/** `decom start`: API + projections + dispatch + adapters in one process (embedded profile). */
export function registerStartCommand(program: Command): void {
  program
    .command('start')
    .description('start the engine: REST API on $PORT (default 8000), projections, jobs and adapters')
    .action(async () => {
      let config;
      try {
        config = loadAppConfig();
      } catch (error) {
        if (error instanceof ConfigError) {
          process.stderr.write(`decom: invalid configuration: ${error.message}\n`);
          process.exit(2);
        }
        throw error;
      }
      const logger = pino({ level: config.logLevel === 'silent' ? 'silent' : config.logLevel, base: undefined });
      let engine;
      try {
        engine = await startEngine({ config, logger });
      } catch (error) {
        const message = error instanceof EntitiesConfigError || (error as { issues?: unknown }).issues ? (error as Error).message : error instanceof Error ? error.message : String(error);
        process.stderr.write(`decom: cannot start: ${message}\n`);
        process.exit(1);
      }
      logger.info(`Decom is running: ${engine.url}/api/hyperfleet/v1 (Ctrl-C to stop)`);
      const stop = async (signal: string) => {
        logger.info(`${signal}: stopping`);
        await engine.close();
        process.exit(0);
      };
      process.once('SIGINT', () => void stop('SIGINT'));
      process.once('SIGTERM', () => void stop('SIGTERM'));
    });
}
