import type { Command } from 'commander';
import { configVariablesHelp } from '@decom/config';
import { runEngineCommand } from './start.command.js';
import { COMMAND_DESCRIPTIONS } from '../command-descriptions.js';

/**
 * `decom api`: REST API + projections + dispatch + sweeper + hard-delete processing, without adapter runs;
 * `decom worker` processes run those from the same Redis (REDIS_URL). Several may run against one
 * PostgreSQL store: their dispatch and sweep job ids are the same, so their jobs collapse into one.
 */
export function registerApiCommand(program: Command): void {
  program
    .command('api')
    .description(COMMAND_DESCRIPTIONS.api)
    .addHelpText('after', configVariablesHelp())
    .action(() => runEngineCommand('api'));
}
