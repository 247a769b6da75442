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

// Fastify warns (FSTWRN004) when Nest installs its route error handler over the one Decom sets for errors
// raised before routing (apps/api/src/create-api-app.ts); that override is intended, so that one warning is
// not shown. Every other process warning prints as usual.
process.removeAllListeners('warning');
process.on('warning', (warning: Error & { code?: string }) => {
  if (warning.code !== 'FSTWRN004') process.stderr.write(`${warning.name}: ${warning.message}\n`);
});

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
