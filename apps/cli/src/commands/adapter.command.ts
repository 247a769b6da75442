import type { Command } from 'commander';
import { loadTaskConfigFile } from '@decom/adapter';

/** `decom adapter validate FILE...`: load and check task configs, print every error, exit non-zero on any. */
export function registerAdapterCommands(program: Command): void {
  const adapter = program.command('adapter').description('tools for adapter authors');
  adapter
    .command('validate')
    .argument('<files...>', 'adapter task config files (YAML)')
    .description('check task configs; prints every error as file:line:column field: message')
    .action(async (files: string[]) => {
      let failed = 0;
      for (const file of files) {
        try {
          await loadTaskConfigFile(file);
          process.stdout.write(`${file}: ok\n`);
        } catch (error) {
          failed++;
          process.stdout.write(`${error instanceof Error ? error.message : String(error)}\n`);
        }
      }
      if (failed > 0) process.exitCode = 1;
    });
}
