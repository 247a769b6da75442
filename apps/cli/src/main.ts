/**
 * `decom` command line. `decom start` is what `npm start` runs.
 */
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { buildInfo } from './build-info.js';
import { COMMAND_DESCRIPTIONS, type CommandName } from './command-descriptions.js';

// `decom history <id> | head -2`: the reader went away; end quietly as Unix tools do, not with an EPIPE stack.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
}

const COMMAND_LOADERS: Readonly<Record<CommandName, () => Promise<(program: Command) => void>>> = {
  start: async () => (await import('./commands/start.command.js')).registerStartCommand,
  demo: async () => (await import('./commands/demo.command.js')).registerDemoCommand,
  adapter: async () => (await import('./commands/adapter.command.js')).registerAdapterCommands,
  api: async () => (await import('./commands/api.command.js')).registerApiCommand,
  worker: async () => (await import('./commands/worker.command.js')).registerWorkerCommand,
  jobs: async () => (await import('./commands/jobs.command.js')).registerJobsCommands,
  projections: async () => (await import('./commands/projections.command.js')).registerProjectionsCommand,
  history: async () => (await import('./commands/history.command.js')).registerHistoryCommand,
  leaks: async () => (await import('./commands/leaks.command.js')).registerLeaksCommand,
  delete: async () => (await import('./commands/delete.command.js')).registerDeleteCommand,
  'break-glass': async () => (await import('./commands/break-glass.command.js')).registerBreakGlassCommands,
  protect: async () => (await import('./commands/rails.command.js')).registerProtectCommand,
  abandon: async () => (await import('./commands/rails.command.js')).registerAbandonCommand,
};

const info = buildInfo();
const program = new Command('decom')
  .description('Decom: event-sourced deletion workflow engine (HyperFleet-compatible)')
  .version(`decom ${info.version} (commit ${info.commit}, node ${process.version})`, '-V, --version', 'print the version and exit')
  .showHelpAfterError()
  // Usage errors (a missing or unknown option, a bad argument) exit 2, as the docs promise for unusable input;
  // commander's own default is 1, which the commands use for a failure of the work itself.
  .exitOverride();
await registerCommands(program, process.argv.slice(2));

/**
 * Each command's modules (the engine, the adapter library, BullMQ, the config loader…) cost hundreds of ms of
 * CPU to load, and a call runs one command: only that one is loaded and registered in full; the others are
 * stand-ins with their description, which is all `decom --help` shows. `decom --version` loads none.
 */
async function registerCommands(program: Command, args: readonly string[]): Promise<void> {
  const named = args[0] === 'help' ? args[1] : args[0];
  for (const name of Object.keys(COMMAND_DESCRIPTIONS) as CommandName[]) {
    if (name === named) await COMMAND_LOADERS[name]().then((register) => register(program));
    else program.command(name).description(COMMAND_DESCRIPTIONS[name]);
  }
}

program.parseAsync(process.argv).catch(async (error: unknown) => {
  // Thrown by an action (e.g. `leaks --delete` without `--reason`): not printed yet. (It is a CommanderError too.)
  if (error instanceof InvalidArgumentError) {
    process.stderr.write(`decom: ${error.message}\n`);
    process.exit(2);
  }
  if (error instanceof CommanderError) {
    // commander has already printed the message (and the help after it); only the exit code is ours.
    process.exit(error.exitCode === 0 ? 0 : 2);
  }
  // A bad environment variable (PORT=abc) is unusable input too, as `decom start` treats it. (Imported only
  // here: `--version` and `--help`, which end above, load nothing of the config library.)
  const { ConfigError } = await import('@decom/config/app-config');
  if (error instanceof ConfigError) {
    process.stderr.write(`decom: invalid configuration: ${error.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`decom: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
