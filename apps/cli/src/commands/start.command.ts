import type { Command } from 'commander';
import pino from 'pino';
import { ConfigError, EntitiesConfigError, checkConfigPaths, configVariablesHelp, loadAppConfig, type AppConfig } from '@decom/config';
import type { EngineRole } from '../engine/engine.js';
import { applyHeapGrowth, heapGrowingPercentFor } from '@decom/runtime';
import { COMMAND_DESCRIPTIONS } from '../command-descriptions.js';

/**
 * Requests and changes the bundled Kubernetes server of `decom start` keeps: none. Nothing in that process
 * reads them back (the demo's timeline and tests do, through `startEngine`'s default of 5,000), and at 5,000
 * they held ~4 MB of the heap after 1,000 clusters × 2 nodepools came and went.
 */
const START_KUBE_HISTORY = 0;

/** `decom start`: API + projections + dispatch + adapters in one process (embedded profile, or BullMQ with REDIS_URL). */
export function registerStartCommand(program: Command): void {
  program
    .command('start')
    .description(COMMAND_DESCRIPTIONS.start)
    .addHelpText('after', configVariablesHelp())
    .action(() => runEngineCommand('all'));
}

/** Loads the configuration (exit 2 on a bad value), starts the engine in `role`, stops it on SIGINT/SIGTERM. */
export async function runEngineCommand(role: EngineRole): Promise<void> {
  const config = loadConfigOrExit({ adapters: role !== 'api' });
  applyHeapGrowth(heapGrowingPercentFor(role, config.heapGrowingPercent));
  const logger = pino({ level: config.logLevel === 'silent' ? 'silent' : config.logLevel, base: undefined });
  // The engine (every lib, Nest, the stores) loads only for the commands that run it: `decom --help` and
  // the HTTP client commands stay cheap to start.
  const [{ PortInUse, startEngine }, { StartAborted }] = await Promise.all([import('../engine/engine.js'), import('@decom/runtime')]);
  // A start may wait for PostgreSQL or Redis for as long as they are down: a signal meanwhile stops it.
  const starting = abortOnSignals(logger);
  let engine;
  try {
    engine = await startEngine({ config, logger, role, localKube: { historyLimit: START_KUBE_HISTORY }, abort: starting.signal });
  } catch (error) {
    if (error instanceof StartAborted) {
      logger.info(`${error.message}: stopped`);
      process.exit(0);
    }
    if (error instanceof ConfigError) {
      process.stderr.write(`decom: invalid configuration: ${error.message}\n`);
      process.exit(2);
    }
    if (error instanceof PortInUse) {
      // One JSON line among the JSON log, with the port as a field.
      logger.fatal({ port: error.port, host: error.host, code: 'EADDRINUSE' }, `cannot start: ${error.message}`);
      process.exit(1);
    }
    if (error instanceof EntitiesConfigError || (error as { issues?: unknown }).issues) {
      // A file that is wrong (kinds, adapters, Sentinel) will be as wrong on the next start: exit 2, as for
      // every configuration error, so a supervisor does not restart it in a loop expecting recovery.
      process.stderr.write(`decom: invalid configuration: ${(error as Error).message}\n`);
      process.exit(2);
    }
    process.stderr.write(`decom: cannot start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
  starting.dispose();
  if (starting.signal.aborted) {
    // The signal came after the last wait: stop what started.
    await engine.close();
    process.exit(0);
  }
  logger.info(
    `Decom is running${role === 'api' ? ' (API role: adapters run in `decom worker` processes)' : ''}: ${engine.url}/api/hyperfleet/v1 (Ctrl-C to stop)`,
  );
  stopOnSignals(logger, () => engine.close());
}

/**
 * SIGINT/SIGTERM while a process starts (it may wait for a dependency): abort `signal`. `dispose()` removes
 * the handlers once started, before `stopOnSignals` installs the ones that stop a running process.
 */
export function abortOnSignals(logger: pino.Logger): { readonly signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    logger.info(`${signal}: stopping the start`);
    controller.abort();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    dispose: () => {
      process.removeListener('SIGINT', onSignal);
      process.removeListener('SIGTERM', onSignal);
    },
  };
}

/** Loads and checks the configuration, including the paths it names; exits 2 with one line naming the variable. */
export function loadConfigOrExit(needs: { adapters: boolean } = { adapters: true }): AppConfig {
  try {
    const config = loadAppConfig();
    checkConfigPaths(config, needs);
    return config;
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`decom: invalid configuration: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
}

/** How long a stop may take before the process exits without waiting further, ms (Kubernetes gives 30 s). */
export const STOP_GRACE_MS = 10_000;

/**
 * On SIGINT/SIGTERM: closes, then exits 0. A close still running after `graceMs` (a dependency unreachable:
 * a client waiting to reconnect) is not waited for: the process says so and exits 1, so a supervisor's
 * stop never hangs and the data folder's lock is released. Every write was acknowledged only once recorded,
 * and queued work is re-dispatched at the next start, so nothing acknowledged is lost.
 */
export function stopOnSignals(logger: pino.Logger, close: () => Promise<void>, graceMs = STOP_GRACE_MS): void {
  const stop = async (signal: string) => {
    logger.info(`${signal}: stopping`);
    const late = setTimeout(() => {
      logger.warn(`${signal}: stopping took longer than ${graceMs} ms (a dependency is unreachable?): exiting without waiting`);
      process.exit(1);
    }, graceMs);
    late.unref();
    await close();
    clearTimeout(late);
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}
