import { basename } from 'node:path';
import { loadAdapterConfigFile } from '../config/adapter-config.parser.js';
import { loadTaskConfigFile } from '../config/task-config.parser.js';
import { AdapterExecutor, type AdapterEvent } from '../executor/adapter-executor.js';
import type { ExecutionResult, ResourceOperation } from '../executor/execution-result.js';
import { OWNER_ANNOTATION, ownerMark, withOwner } from '../executor/ownership.js';
import type { ApiExchange } from '../simulation/api-exchange.js';
import { RecordedResponsesApiClient, RecordedResponsesError } from '../simulation/recorded-responses.api-client.js';
import { SimulatedCluster, type SimulatedCall } from '../simulation/simulated-cluster.js';
import type { KubeObject } from '../transport/resource-transport.port.js';
import {
  loadDiscoveryFile,
  loadEventFile,
  loadJsonFile,
  rawYaml,
  siblingDeploymentConfig,
  SimulationInputError,
} from './dry-run-inputs.js';

/** The three files of HyperFleet's dry run, plus the task config (and optionally its deployment config). */
export interface DryRunInputs {
  readonly taskConfigFile: string;
  /** CloudEvent JSON (or bare event data). */
  readonly eventFile: string;
  /** HyperFleet's dry-run API responses file; absent = every request answers 200 `{}`. */
  readonly apiResponsesFile?: string;
  /** HyperFleet's dry-run discovery file; absent = an empty cluster. */
  readonly discoveryFile?: string;
  /** Deployment config; default `<task>.adapter.yaml` beside the task config when it exists. */
  readonly adapterConfigFile?: string;
  /** `env.` sources and the `env` variable (the CLI passes the process environment). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly now?: () => Date;
}

/** Everything one simulated event did: the execution trace plus every call with its body. */
export interface DryRunReport {
  readonly taskConfig: string;
  readonly adapter: { readonly name: string; readonly version?: string };
  readonly event: AdapterEvent;
  readonly result: ExecutionResult;
  /** Kubernetes and Maestro calls, in order, with the manifests that would be sent. */
  readonly kubernetesCalls: readonly SimulatedCall[];
  readonly apiExchanges: readonly ApiExchange[];
  /** Requests with a body the post actions would send (status reports). */
  readonly statusReports: readonly { readonly method: string; readonly url: string; readonly body: unknown }[];
}

/**
 * Discovery objects stand for what this adapter created, so they carry its ownership marker
 * unless they set `decom.io/owner` themselves (a foreign value rehearses a pre-existing object).
 */
function ownedByDefault(discovered: Record<string, KubeObject>, mark: string): Record<string, KubeObject> {
  return Object.fromEntries(
    Object.entries(discovered).map(([key, object]) => [
      key,
      object.metadata?.annotations?.[OWNER_ANNOTATION] !== undefined ? object : withOwner(object, mark),
    ]),
  );
}

/**
 * The operations as HyperFleet's dry-run recording client labels them: a DELETE it was asked for is `delete`.
 * Decom's executor says `wait` while a deleted object is still present (a Maestro work until Maestro
 * confirms; its plan counts on that); the calls are the same, only the label differs.
 */
function asRecordedOperations(operations: readonly ResourceOperation[], calls: readonly SimulatedCall[]): ResourceOperation[] {
  const key = (kind: string, name: string | undefined) => `${kind}/${name ?? ''}`;
  const deleted = new Set(calls.filter((c) => c.verb === 'delete' && c.name !== undefined).map((c) => key(c.kind, c.name)));
  return operations.map((op) => (op.operation === 'wait' && deleted.has(key(op.kind, op.name)) ? { ...op, operation: 'delete' } : op));
}

/**
 * Runs one event through a task config with no network: the HyperFleet API answers from the
 * recorded responses, Kubernetes and Maestro are an in-memory cluster holding the discovery
 * objects (present from the start, so a deletion pass can be rehearsed; an applied object whose
 * name is a discovery key is stored as that object, HyperFleet's override rule).
 * @throws TaskConfigError (bad config), SimulationInputError (bad event, responses or discovery file).
 * @see HyperFleet: hyperfleet-adapter docs/configuration.md (dry-run flags), docs/adapter-tools.md.
 */
export async function runDryRun(inputs: DryRunInputs): Promise<DryRunReport> {
  const task = await loadTaskConfigFile(inputs.taskConfigFile);
  const deploymentFile = inputs.adapterConfigFile ?? siblingDeploymentConfig(inputs.taskConfigFile);
  const deployment = deploymentFile ? await loadAdapterConfigFile(deploymentFile, inputs.env ?? {}) : undefined;
  const event = await loadEventFile(inputs.eventFile);
  const responses = await loadJsonFile(inputs.apiResponsesFile, 'API responses');
  let api: RecordedResponsesApiClient;
  try {
    api = new RecordedResponsesApiClient(responses ?? { responses: [] }, {
      version: deployment?.clients.hyperfleetApi.version ?? 'v1',
      ...(deployment?.clients.hyperfleetApi.baseUrl && { baseUrl: deployment.clients.hyperfleetApi.baseUrl }),
    });
  } catch (error) {
    if (error instanceof RecordedResponsesError) throw new SimulationInputError(`${inputs.apiResponsesFile}: ${error.message}`);
    throw error;
  }
  const adapter = {
    name: deployment?.adapter.name ?? basename(inputs.taskConfigFile).replace(/\.ya?ml$/, ''),
    ...(deployment?.adapter.version && { version: deployment.adapter.version }),
  };
  const discovered = ownedByDefault(await loadDiscoveryFile(inputs.discoveryFile), ownerMark(event, adapter.name));
  // HyperFleet's dry-run client: a deleted object is gone at once (a Namespace delete confirms cleanup in the same run).
  const cluster = new SimulatedCluster({ overrides: discovered, immediateDeletes: true, ...(inputs.now && { now: inputs.now }) });
  for (const object of Object.values(discovered)) cluster.seed(object);
  const executor = new AdapterExecutor(task, adapter, {
    api,
    transport: cluster,
    maestro: (consumer) => cluster.forConsumer(consumer),
    env: inputs.env ?? {},
    config: deploymentFile ? await rawYaml(deploymentFile) : {},
    // A dry run never waits: recreate_on_change reports what it would do on the next event.
    recreateWait: { timeoutMs: 0, intervalMs: 1, sleep: async () => undefined },
    // HyperFleet's recording client compares no generation: a present object is updated.
    replaceUnchanged: true,
    ...(inputs.now && { now: inputs.now }),
  });
  const result = await executor.execute(event);
  return {
    taskConfig: inputs.taskConfigFile,
    adapter,
    event,
    result: { ...result, operations: asRecordedOperations(result.operations, cluster.calls) },
    kubernetesCalls: cluster.calls,
    apiExchanges: api.exchanges,
    statusReports: api.exchanges
      .filter((e) => e.method !== 'GET' && e.requestBody !== undefined)
      .map((e) => ({ method: e.method, url: e.url, body: e.requestBody })),
  };
}
