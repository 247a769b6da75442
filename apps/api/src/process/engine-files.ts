import { KubeConfig } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { ConfigError, loadEntitiesConfig, type AppConfig } from '@decom/config';
import { KindRegistry } from '@decom/domain';
import { compileMessageDecision, loadSentinelConfig, sentinelDefaultDecision, sentinelRules, type SentinelRules } from '@decom/jobs';
import type { AdapterHost } from '@decom/runtime';
import { buildEngineAuth, type EngineAuth } from './api-auth.js';

/** What an engine reads from files before a port opens or a store is touched. */
export interface EngineFiles {
  readonly kinds: KindRegistry;
  readonly auth: EngineAuth;
  /** The cluster the hosted adapters reach (role `all`): KUBECONFIG's, or empty until the bundled server starts. */
  readonly kubeConfig?: KubeConfig;
  readonly rules: SentinelRules;
}

/**
 * Reads and checks every file a user can get wrong: the entities config, the server config (auth), KUBECONFIG,
 * the adapter configs (role `all`: `adapterHost.checkConfigs`) and the Sentinel rules against the kinds.
 * @param adapterHost the adapters this process hosts (role `all`); undefined for `decom api`.
 * @param sweepDebounceMs tests and the demo: every kind's sweep rule becomes Sentinel's default with this debounce.
 * @throws ConfigError naming the file, line and field at fault.
 */
export async function readEngineFiles(
  config: AppConfig,
  logger: Logger,
  adapterHost: AdapterHost | undefined,
  sweepDebounceMs?: number,
): Promise<EngineFiles> {
  const hostsAdapters = adapterHost !== undefined;
  const kinds = new KindRegistry(await loadEntitiesConfig(config.entitiesFile));
  const auth = await buildEngineAuth(config, logger, { hostsAdapters });
  const kubeConfig = hostsAdapters ? loadKubeConfig(config.kubeconfig) : undefined;
  if (adapterHost) await adapterHost.checkConfigs(config);
  const rules = await sweepRules(config, kinds, sweepDebounceMs);
  return { kinds, auth, ...(kubeConfig ? { kubeConfig } : {}), rules };
}

/** @throws ConfigError naming KUBECONFIG when the file cannot be read as a kubeconfig. Undefined path → empty config. */
export function loadKubeConfig(path: string | undefined): KubeConfig {
  const kubeConfig = new KubeConfig();
  if (!path) return kubeConfig;
  try {
    kubeConfig.loadFromFile(path);
  } catch (error) {
    throw new ConfigError(
      'KUBECONFIG',
      `cannot read ${path} as a kubeconfig: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`,
    );
  }
  if (!kubeConfig.getCurrentCluster()) throw new ConfigError('KUBECONFIG', `${path} names no current cluster`);
  return kubeConfig;
}

/** The sweep's Sentinel rules: `sentinel.yaml`, or (tests, demo) the default rule with another debounce. */
async function sweepRules(config: AppConfig, kinds: KindRegistry, debounceMs?: number): Promise<SentinelRules> {
  if (debounceMs !== undefined)
    return sentinelRules(new Map(), compileMessageDecision(sentinelDefaultDecision({ debounce: `${debounceMs}ms` })));
  return loadSentinelConfig(
    config.sentinelFile,
    kinds.descriptors.map((d) => d.plural),
  );
}
