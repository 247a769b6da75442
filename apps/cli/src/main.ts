/**
 * `decom` command line. `decom start` is what `npm start` runs.
 */
import { Command } from 'commander';
import { registerStartCommand } from './commands/start.command.js';
import { registerDemoCommand } from './commands/demo.command.js';
import { registerAdapterCommands } from './commands/adapter.command.js';
import { registerApiCommand } from './commands/api.command.js';
import { registerWorkerCommand } from './commands/worker.command.js';
import { registerJobsCommands } from './commands/jobs.command.js';
import { registerProjectionsCommand } from './commands/projections.command.js';
import { registerHistoryCommand } from './commands/history.command.js';

const program = new Command('decom')
  .description('Decom: event-sourced deletion workflow engine (HyperFleet-compatible)')
  .showHelpAfterError();
registerStartCommand(program);
registerDemoCommand(program);
registerAdapterCommands(program);
registerApiCommand(program);
registerWorkerCommand(program);
registerJobsCommands(program);
registerProjectionsCommand(program);
registerHistoryCommand(program);

program.parseAsync(process.argv).catch((error: unknown) => {
  process.stderr.write(`decom: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
