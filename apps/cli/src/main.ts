/**
 * `decom` command line. `decom start` is what `npm start` runs.
 */
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { buildInfo } from './build-info.js';
import { registerStartCommand } from './commands/start.command.js';
import { registerDemoCommand } from './commands/demo.command.js';
import { registerApiCommand } from './commands/api.command.js';
import { registerWorkerCommand } from './commands/worker.command.js';
import { registerJobsCommands } from './commands/jobs.command.js';
import { registerProjectionsCommand } from './commands/projections.command.js';
import { registerHistoryCommand } from './commands/history.command.js';
import { registerLeaksCommand } from './commands/leaks.command.js';
import { registerDeleteCommand } from './commands/delete.command.js';

// `decom history <id> | head -2`: the reader went away; end quietly as Unix tools do, not with an EPIPE stack.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
}

const info = buildInfo();
const program = new Command('decom')
  .description('Decom: event-sourced deletion workflow engine (HyperFleet-compatible)')
  .version(`decom ${info.version} (commit ${info.commit}, node ${process.version})`, '-V, --version', 'print the version and exit')
  .showHelpAfterError()
  // Usage errors (a missing or unknown option, a bad argument) exit 2, as the docs promise for unusable input;
  // commander's own default is 1, which the commands use for a failure of the work itself.
  .exitOverride();
registerStartCommand(program);
registerDemoCommand(program);
await registerAdapterTools(program);
registerApiCommand(program);
registerWorkerCommand(program);
registerJobsCommands(program);
registerProjectionsCommand(program);
registerHistoryCommand(program);
registerLeaksCommand(program);
registerDeleteCommand(program);

/**
 * `decom adapter …` (validate, dry-run, plan) needs the whole adapter library, about a second of CPU to
 * load: it is loaded when that command runs; every other call, `--help` included, sees a stand-in that
 * names it and sends `decom adapter --help` to the real one.
 */
async function registerAdapterTools(program: Command): Promise<void> {
  if (process.argv[2] === 'adapter' || (process.argv[2] === 'help' && process.argv[3] === 'adapter')) {
    const { registerAdapterCommands } = await import('./commands/adapter.command.js');
    registerAdapterCommands(program);
    return;
  }
  program.command('adapter').description('tools for adapter authors (validate, dry-run, plan; see decom adapter --help)');
}

program.parseAsync(process.argv).catch((error: unknown) => {
  // Thrown by an action (e.g. `leaks --delete` without `--reason`): not printed yet. (It is a CommanderError too.)
  if (error instanceof InvalidArgumentError) {
    process.stderr.write(`decom: ${error.message}\n`);
    process.exit(2);
  }
  if (error instanceof CommanderError) {
    // commander has already printed the message (and the help after it); only the exit code is ours.
    process.exit(error.exitCode === 0 ? 0 : 2);
  }
  process.stderr.write(`decom: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
