import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { KubeConfig } from '@kubernetes/client-node';
import {
  ApiCallError,
  formatDeletionPlan,
  formatDryRun,
  HttpHyperfleetApiClient,
  isDeploymentConfigFile,
  tokenFileSource,
  KubernetesTransport,
  loadAdapterConfigFile,
  loadTaskConfigFile,
  maestroTransports,
  planDeletion,
  PlanError,
  rawYaml,
  runDryRun,
  siblingDeploymentConfig,
  SimulationInputError,
  TaskConfigError,
  formatConfigIssue,
  unsetRequiredEnv,
  type AdapterDeploymentConfig,
  type TaskConfig,
  type PlanAdapter,
} from '@decom/adapter';
import { adapterEnvironment, bundledKubeconfigPath, loadAppConfig } from '@decom/config';
import { COMMAND_DESCRIPTIONS } from '../command-descriptions.js';
import { engineUrl, TOKEN_HINT } from './engine-client.js';

/** Where the adapter commands write, and how they report their exit code (tests capture both). */
export interface AdapterCliIo {
  out(text: string): void;
  err(text: string): void;
  setExitCode(code: number): void;
}

const processIo: AdapterCliIo = {
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
  setExitCode: (code) => {
    process.exitCode = code;
  },
};

/**
 * `--env NAME=VALUE` (repeatable): added to (and winning over) the process environment, which adapters
 * read as HyperFleet's do (`env.X` params, `HYPERFLEET_*` deployment-config overrides;
 * hyperfleet-adapter `docs/configuration.md`).
 */
function collectEnv(value: string, previous: Record<string, string>): Record<string, string> {
  const at = value.indexOf('=');
  if (at <= 0) throw new Error(`--env expects NAME=VALUE, got ${JSON.stringify(value)}`);
  return { ...previous, [value.slice(0, at)]: value.slice(at + 1) };
}

/** A known input problem: message already formatted for the user (exit code 2). */
function inputProblem(error: unknown): string | undefined {
  if (error instanceof TaskConfigError) return error.message;
  if (error instanceof SimulationInputError || error instanceof PlanError || error instanceof ApiCallError) return error.message;
  return undefined;
}

/** The defaults `plan` takes from the engine's configuration; none when it is invalid. */
function engineDefaults(): { apiBaseUrl?: string; kubeconfig?: string; apiTokenFile?: string } {
  try {
    const config = loadAppConfig();
    // Without KUBECONFIG the engine's bundled server is meant: `decom start` writes its kubeconfig into the data folder.
    const bundled = bundledKubeconfigPath(config.dataDir);
    const kubeconfig = config.kubeconfig ?? (existsSync(bundled) ? bundled : undefined);
    return {
      apiBaseUrl: config.apiBaseUrl,
      ...(kubeconfig && { kubeconfig }),
      ...(config.apiTokenFile && { apiTokenFile: config.apiTokenFile }),
    };
  } catch {
    return {};
  }
}

async function planAdapter(
  file: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<{ adapter: PlanAdapter; deployment?: AdapterDeploymentConfig }> {
  const task = await loadTaskConfigFile(file);
  const deploymentFile = siblingDeploymentConfig(file);
  const deployment = deploymentFile ? await loadAdapterConfigFile(deploymentFile, env) : undefined;
  return {
    adapter: {
      name: deployment?.adapter.name ?? basename(file).replace(/\.ya?ml$/, ''),
      ...(deployment?.adapter.version && { version: deployment.adapter.version }),
      task,
      ...(deploymentFile && { config: await rawYaml(deploymentFile) }),
    },
    ...(deployment && { deployment }),
  };
}

/**
 * `decom adapter validate | dry-run | plan`: tools for adapter authors.
 * Exit codes: 0 ok; 1 validation errors / failed execution / blocked plan; 2 unusable input.
 * @see docs/adapter-tools.md.
 */
export function registerAdapterCommands(program: Command, io: AdapterCliIo = processIo): void {
  const adapter = program.command('adapter').description(COMMAND_DESCRIPTIONS.adapter);

  adapter
    .command('validate')
    .argument(
      '[files...]',
      'adapter task configs and deployment configs (YAML); a deployment config is known by its name (`*.adapter.yaml`, `adapter-config.yaml`) or its content',
    )
    .description('check task and deployment configs; prints every error of every file as file:line:column field: message')
    .option('--config <file>', "a deployment config, whatever its name or content (HyperFleet's --config; repeatable)", collectFiles, [])
    .option(
      '--task-config <file>',
      "a task config, whatever its name or content (HyperFleet's --task-config; repeatable)",
      collectFiles,
      [],
    )
    .option('--strict', 'unknown CEL variables are errors (HyperFleet finds them only when evaluating: a warning by default)')
    .option('--env <NAME=VALUE>', 'environment of the adapter, over the process environment (repeatable)', collectEnv, {})
    .action(async (args: string[], options: { config: string[]; taskConfig: string[]; strict?: boolean; env: Record<string, string> }) => {
      const env = { ...adapterEnvironment(), ...options.env };
      const inputs: { file: string; kind?: 'task' | 'deployment' }[] = [
        ...options.config.map((file) => ({ file, kind: 'deployment' as const })),
        ...options.taskConfig.map((file) => ({ file, kind: 'task' as const })),
        ...args.map((file) => ({ file })),
      ];
      if (inputs.length === 0) {
        io.err('validate needs at least one file (or --config / --task-config)\n');
        io.setExitCode(2);
        return;
      }
      const files = inputs.map((i) => i.file);
      let failed = 0;
      let unusable = 0;
      for (const { file, kind } of inputs) {
        try {
          if (kind === 'deployment' || (kind === undefined && (await isDeploymentConfigFile(file)))) {
            await loadAdapterConfigFile(file, env);
            io.out(`${file}: ok (deployment config)\n`);
            continue;
          }
          const task = await loadTaskConfigFile(file, { strict: options.strict === true });
          io.out(`${file}: ok\n`);
          for (const warning of task.warnings ?? []) io.out(`${formatConfigIssue(warning)} (warning)\n`);
          for (const variable of unsetRequiredEnv(task, env)) {
            io.out(`${file}: warning: required param source env.${variable} is unset: every run would fail its param extraction\n`);
          }
          // Legal HyperFleet, but a required adapter that never reports keeps every deletion waiting.
          if (!reportsStatus(task))
            io.out(
              `${file}: warning: no post action PUTs a status (.../statuses): this adapter never reports, so deletions would wait on it forever\n`,
            );
        } catch (error) {
          failed++;
          if (error instanceof TaskConfigError && error.unusable) unusable++;
          io.out(`${inputProblem(error) ?? (error instanceof Error ? error.message : String(error))}\n`);
        }
      }
      if (failed > 0) {
        io.err(
          `${failed} of ${files.length} file(s) have errors${unusable > 0 ? ` (${unusable} unusable: unreadable, not YAML or empty)` : ''}\n`,
        );
        // 2 (unusable input) wins over 1 (errors found): docs/adapter-tools.md.
        io.setExitCode(unusable > 0 ? 2 : 1);
      }
    });

  adapter
    .command('dry-run')
    .description('run one event against recorded API responses and discovery; no network')
    .requiredOption('--task-config <file>', 'adapter task config (YAML)')
    .requiredOption('--event <file>', 'CloudEvent JSON (HyperFleet --dry-run-event)')
    .option('--api-responses <file>', 'recorded API responses JSON (HyperFleet --dry-run-api-responses)')
    .option('--discovery <file>', 'discovered objects JSON (HyperFleet --dry-run-discovery)')
    .option('--adapter-config <file>', 'deployment config (default: <task>.adapter.yaml beside the task config)')
    .option('--env <NAME=VALUE>', 'environment of the adapter (repeatable)', collectEnv, {})
    .addOption(new Option('--output <format>', 'report format').choices(['text', 'json']).default('text'))
    .action(
      async (options: {
        taskConfig: string;
        event: string;
        apiResponses?: string;
        discovery?: string;
        adapterConfig?: string;
        env: Record<string, string>;
        output: 'text' | 'json';
      }) => {
        try {
          const report = await runDryRun({
            taskConfigFile: options.taskConfig,
            eventFile: options.event,
            ...(options.apiResponses && { apiResponsesFile: options.apiResponses }),
            ...(options.discovery && { discoveryFile: options.discovery }),
            ...(options.adapterConfig && { adapterConfigFile: options.adapterConfig }),
            env: { ...adapterEnvironment(), ...options.env },
          });
          io.out(
            options.output === 'json'
              ? `${JSON.stringify(report, (_, v: unknown) => (typeof v === 'bigint' ? Number(v) : v), 2)}\n`
              : formatDryRun(report),
          );
          if (report.result.status !== 'success') io.setExitCode(1);
        } catch (error) {
          const problem = inputProblem(error);
          if (!problem) throw error;
          io.err(`${problem}\n`);
          io.setExitCode(2);
        }
      },
    );

  adapter
    .command('plan')
    .description('ordered deletion plan of a resource marked for deletion, over all adapters (read-only)')
    .requiredOption('--task-config <files...>', 'adapter task configs (YAML); <name>.adapter.yaml beside each is read too')
    .requiredOption('--resource <href-or-id>', 'resource href (/api/hyperfleet/v1/clusters/<id>) or id')
    .option('--api <url>', 'HyperFleet/Decom API base URL (default: the engine configuration)', engineUrl)
    .option('--token-file <path>', 'bearer token for an API with JWT on (default $DECOM_TOKEN_FILE)')
    .option('--kubeconfig <file>', "Kubernetes to read (default: $KUBECONFIG, else the running engine's $DECOM_DATA_DIR/kubeconfig)")
    .option('--maestro <url>', 'Maestro http_server_address to read (default: clients.maestro of the deployment configs)')
    .option('--maestro-source-id <id>', 'Maestro source_id (default: clients.maestro of the deployment configs)')
    .option('--max-passes <n>', 'stop after this many passes (1..100)', parsePassCount, 10)
    .option('--env <NAME=VALUE>', 'environment of the adapters (repeatable)', collectEnv, {})
    .addOption(new Option('--output <format>', 'report format').choices(['text', 'json']).default('text'))
    .action(
      async (options: {
        taskConfig: string[];
        resource: string;
        api?: string;
        kubeconfig?: string;
        maestro?: string;
        maestroSourceId?: string;
        maxPasses: number;
        env: Record<string, string>;
        output: 'text' | 'json';
        tokenFile?: string;
      }) => {
        const defaults = engineDefaults();
        const tokenFile = options.tokenFile ?? defaults.apiTokenFile;
        const apiBaseUrl = options.api ?? defaults.apiBaseUrl;
        const kubeconfig = options.kubeconfig ?? defaults.kubeconfig;
        if (!apiBaseUrl || !kubeconfig) {
          io.err(
            `plan needs ${!apiBaseUrl ? '--api' : '--kubeconfig (or KUBECONFIG; with a running `decom start` and no KUBECONFIG, its DECOM_DATA_DIR/kubeconfig is used)'}\n`,
          );
          io.setExitCode(2);
          return;
        }
        try {
          const env = { ...adapterEnvironment(), ...options.env };
          const loaded = await Promise.all(options.taskConfig.map((file) => planAdapter(file, env)));
          const kubeConfig = new KubeConfig();
          kubeConfig.loadFromFile(kubeconfig);
          const maestroConfig = loaded.find((l) => l.deployment?.clients.maestro)?.deployment?.clients.maestro;
          const maestro = maestroTransports(maestroConfig, {
            ...(options.maestro && { baseUrl: options.maestro }),
            ...(options.maestroSourceId && { sourceId: options.maestroSourceId }),
          });
          const plan = await planDeletion({
            adapters: loaded.map((l) => l.adapter),
            resource: options.resource,
            api: new HttpHyperfleetApiClient({
              baseUrl: apiBaseUrl,
              retryAttempts: 1,
              ...(tokenFile && { bearerToken: tokenFileSource(tokenFile) }),
            }),
            kubernetes: new KubernetesTransport(kubeConfig),
            ...(maestro && { maestro }),
            maxPasses: options.maxPasses,
            env,
          });
          io.out(
            options.output === 'json'
              ? `${JSON.stringify(plan, (_, v: unknown) => (typeof v === 'bigint' ? Number(v) : v), 2)}\n`
              : formatDeletionPlan(plan),
          );
          if (plan.outcome !== 'complete') io.setExitCode(1);
        } catch (error) {
          // A refused call is a failure of the work (exit 1, as the other client commands), and its fix is a token.
          if (error instanceof ApiCallError && error.status === 401) {
            io.err(
              `${error.message}: ${tokenFile ? 'the API refused the bearer token in the token file (expired, or not from a trusted issuer?)' : `the API needs a bearer token: ${TOKEN_HINT}`}\n`,
            );
            io.setExitCode(1);
            return;
          }
          const problem = inputProblem(error);
          if (!problem) throw error;
          io.err(`${problem}\n`);
          io.setExitCode(2);
        }
      },
    );
}

/** commander accumulator of a repeatable file option. */
function collectFiles(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function reportsStatus(task: TaskConfig): boolean {
  return task.post.postActions.some(
    (action) => action.apiCall && /statuses/.test(action.apiCall.url.source) && ['PUT', 'POST'].includes(action.apiCall.method),
  );
}

/** `--max-passes`: a whole number 1..100, else commander reports a usage error. */
function parsePassCount(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < 1 || n > 100) throw new InvalidArgumentError('must be a whole number from 1 to 100');
  return n;
}
