/**
 * `decom` command line. `decom start` is what `npm start` runs.
 */
import { Command } from 'commander';
import { buildInfo } from './build-info.js';
import { registerStartCommand } from './commands/start.command.js';
import { registerDemoCommand } from './commands/demo.command.js';
import { registerAdapterCommands } from './commands/adapter.command.js';
import { registerApiCommand } from './commands/api.command.js';
import { registerWorkerCommand } from './commands/worker.command.js';
import { registerJobsCommands } from './commands/jobs.command.js';
import { registerProjectionsCommand } from './commands/projections.command.js';
import { registerHistoryCommand } from './commands/history.command.js';
import { registerLeaksCommand } from './commands/leaks.command.js';

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
  .showHelpAfterError();
registerStartCommand(program);
registerDemoCommand(program);
registerAdapterCommands(program);
registerApiCommand(program);
registerWorkerCommand(program);
registerJobsCommands(program);
registerProjectionsCommand(program);
registerHistoryCommand(program);
registerLeaksCommand(program);

program.parseAsync(process.argv).catch((error: unknown) => {
  process.stderr.write(`decom: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
