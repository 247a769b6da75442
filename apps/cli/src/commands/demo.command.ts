import type { Command } from 'commander';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAppConfig } from '@decom/config';
import { COMMAND_DESCRIPTIONS } from '../command-descriptions.js';

/** `decom demo`: runs the seed 000/001 scenario against a fresh embedded engine and prints a timeline. */
export function registerDemoCommand(program: Command): void {
  program
    .command('demo')
    .description(COMMAND_DESCRIPTIONS.demo)
    .action(async () => {
      // The engine loads when the demo runs, not for `decom --help`.
      const [{ default: pino }, { startEngine }, { runDemoScenario }, { buildTimeline }] = await Promise.all([
        import('pino'),
        import('../engine/engine.js'),
        import('../demo/demo-scenario.js'),
        import('../demo/timeline.js'),
      ]);
      const dataDir = await mkdtemp(join(tmpdir(), 'decom-demo-'));
      const config = {
        ...loadAppConfig({ ...process.env, PORT: '0', DECOM_DATA_DIR: dataDir, KUBECONFIG: '' }),
        logLevel: 'silent' as const,
      };
      // The engine's JSON log is kept apart from the formatted output (step 5 fails an adapter on purpose):
      // it is printed only when the demo fails.
      const engineLog: string[] = [];
      const logger = pino({ level: 'warn' }, { write: (line: string) => void engineLog.push(line) });
      const engine = await startEngine({ config, logger, sweep: { intervalMs: 5_000, debounceMs: 2_000 } });
      const out = (line: string) => process.stdout.write(`${line}\n`);
      out(`Decom demo: embedded engine at ${engine.url}, bundled Kubernetes API server at ${engine.localKube!.url}`);
      try {
        const report = await runDemoScenario(engine.url, engine.localKube!, out);
        const names = new Map<string, string>([
          [report.clusterId, 'prod-eu-1'],
          [report.stuckClusterId, 'stuck-1'],
        ]);
        report.nodepoolIds.forEach((id, i) => names.set(id, `np-${'ab'[i]}`));
        out('\n── timeline (events recorded by Decom, Kubernetes objects created/deleted)');
        for (const line of await buildTimeline(engine.store, engine.localKube, names)) out(`${line.time.slice(11, 23)}  ${line.text}`);
        out('\nDemo passed: every step of seeds 000 and 001 checked.');
      } catch (error) {
        out(`\nDemo FAILED: ${error instanceof Error ? error.message : String(error)}`);
        if (engineLog.length > 0) out(`\nengine log (warnings and errors):\n${engineLog.join('').trimEnd()}`);
        process.exitCode = 1;
      } finally {
        await engine.close();
        await rm(dataDir, { recursive: true, force: true });
      }
    });
}
