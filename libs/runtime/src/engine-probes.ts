/**
 * The dependency probes of one engine process, by profile: the event store and read-model database
 * (`sqlite`, or `postgres`, or `eventstoredb` + `postgres`), Redis when `REDIS_URL` is set (with its
 * eviction policy), the JWKS when JWT issuers fetch keys over HTTP, Kubernetes where this process reaches it
 * (information only). `/readyz` and `decom_dependency_up` read the same cached results.
 */
import { VersionApi, type KubeConfig } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import type { AppConfig } from '@decom/config';
import type { EventStore } from '@decom/event-store';
import type { ReadModelStore } from '@decom/projections';
import { DependencyProbes, type DependencyName, type DependencyProbe, type ProbeResult, jwksProbe, redisProbe } from '@decom/health';

export interface EngineProbeSources {
  readonly config: Pick<AppConfig, 'eventStore' | 'redisUrl'>;
  readonly store: EventStore;
  readonly readModels: ReadModelStore;
  /** The API's JWT verifier (`JwtVerifier` of `@decom/api`): its key sets fetched over HTTP are probed. */
  readonly verifier?: { readonly keySetProbes: Parameters<typeof jwksProbe>[0] };
  /** Where this process reaches Kubernetes (read at each probe: the bundled server fills it in later). */
  readonly kubeConfig?: KubeConfig;
  readonly logger: Logger;
  /**
   * Called when a dependency answers again after being down (a down → up change, with its `up again` line;
   * not unknown → up, e.g. the bundled Kubernetes server starting), e.g.
   * Kubernetes: re-run the adapter runs backing off because of it (kubernetes-recovery.ts).
   */
  readonly onBack?: (dependency: DependencyName) => void;
  /** Test knobs: probe period and bound, ms. */
  readonly intervalMs?: number;
  readonly timeoutMs?: number;
}

export interface EngineProbes {
  readonly probes: DependencyProbes;
  /** The dependency whose probe reads the event store's head (its detail carries `head_position`). */
  readonly eventStore: DependencyName;
  close(): Promise<void>;
}

/** Builds the probes (not started: call `probes.start()`). */
export function engineProbes(sources: EngineProbeSources): EngineProbes {
  const { config, store, readModels, logger } = sources;
  const list: DependencyProbe[] = [];
  const eventStore: DependencyName = config.eventStore === 'esdb' ? 'eventstoredb' : config.eventStore;
  const head = async () => ({ status: 'up' as const, detail: { head_position: await store.headPosition() } });
  const readModel = async () => void (await readModels.query('SELECT 1'));
  if (config.eventStore === 'esdb') {
    list.push({ dependency: 'eventstoredb', affectsReadiness: true, check: head });
    list.push({ dependency: 'postgres', affectsReadiness: true, check: readModel });
  } else {
    // One database holds the events and the read models: both are read, either failing is this one down.
    list.push({ dependency: eventStore, affectsReadiness: true, check: async () => (await readModel(), head()) });
  }
  const closers: (() => Promise<void>)[] = [];
  if (config.redisUrl) {
    const redis = redisProbe(config.redisUrl, (reason) =>
      logger.warn(`Redis eviction policy unknown (${reason}): cannot check that it is noeviction, which BullMQ needs`),
    );
    list.push(redis);
    closers.push(() => redis.close());
  }
  const keySets = sources.verifier?.keySetProbes ?? [];
  if (keySets.length > 0) list.push(jwksProbe(keySets));
  if (sources.kubeConfig) list.push(kubernetesProbe(sources.kubeConfig));
  const probes = new DependencyProbes(list, {
    ...(sources.intervalMs !== undefined && { intervalMs: sources.intervalMs }),
    ...(sources.timeoutMs !== undefined && { timeoutMs: sources.timeoutMs }),
    onChange: (current, previous) => {
      if (logChange(logger, current, previous) && previous.status === 'down') sources.onBack?.(current.dependency);
    },
  });
  return {
    probes,
    eventStore,
    async close() {
      probes.stop();
      for (const close of closers) await close();
    },
  };
}

/**
 * Kubernetes, information only (a cluster being down holds adapter runs, not the API): `GET /version`.
 * The bundled server's address is loaded into `kube` once it listens (after the API), so it is read at each probe.
 */
export function kubernetesProbe(kube: KubeConfig): DependencyProbe {
  let version: VersionApi | undefined;
  return {
    dependency: 'kubernetes',
    affectsReadiness: false,
    async check() {
      if (!kube.getCurrentCluster()) return { status: 'unknown', reason: KUBERNETES_NOT_STARTED };
      version ??= kube.makeApiClient(VersionApi);
      await version.getCode();
    },
  };
}

/**
 * The probes of a `decom worker` (Redis with its eviction policy, its Kubernetes), started; they feed its
 * `decom_dependency_up` as the engine's feed `/readyz` and its metrics. `onBack`: as `EngineProbeSources.onBack`.
 * `close()` stops them.
 */
export function workerProbes(
  redisUrl: string,
  kube: KubeConfig,
  logger: Logger,
  onBack?: (dependency: DependencyName) => void,
): { probes: DependencyProbes; close(): Promise<void> } {
  const redis = redisProbe(redisUrl, (reason) =>
    logger.warn(`Redis eviction policy unknown (${reason}): cannot check that it is noeviction, which BullMQ needs`),
  );
  const probes = new DependencyProbes([redis, kubernetesProbe(kube)], {
    onChange: (current, previous) => {
      if (logChange(logger, current, previous) && previous.status === 'down') onBack?.(current.dependency);
    },
  });
  probes.start();
  return {
    probes,
    async close() {
      probes.stop();
      await redis.close();
    },
  };
}

/** The bundled Kubernetes server starts after the API listens: until then its probe has nothing to ask. */
const KUBERNETES_NOT_STARTED = 'the Kubernetes API server is not started yet';

/** States of a start-up, not outages: no line while in them, and none when they end in `up`. */
const STARTING_REASONS: ReadonlySet<string> = new Set(['not probed yet', KUBERNETES_NOT_STARTED]);

/**
 * One line per change: down (or a new reason), and back up after being down; the start-up's own states
 * (not probed yet, the bundled Kubernetes server not started yet) and the first `up` after them are quiet.
 * @returns true when the dependency is back (up after being down or unknown, not the first probe at start).
 */
function logChange(logger: Logger, current: ProbeResult, previous: ProbeResult): boolean {
  const fields = { dependency: current.dependency, status: current.status, since: current.since };
  if (current.status === 'up') {
    if (previous.status === 'unknown' && previous.reason === 'not probed yet') return false;
    // Runs a previous process left backing off on an unreachable cluster are due once it answers: `true`.
    if (previous.status === 'unknown' && previous.reason === KUBERNETES_NOT_STARTED) return true;
    logger.info(
      fields,
      `dependency ${current.dependency} up again (was ${previous.status} since ${previous.since}: ${previous.reason ?? ''})`,
    );
    return true;
  }
  if (current.status === 'unknown' && STARTING_REASONS.has(current.reason ?? '')) return false;
  logger.warn(
    { ...fields, reason: current.reason },
    `dependency ${current.dependency} ${current.status}: ${current.reason}${current.affects_readiness ? '' : ' (information only: readiness unaffected)'}`,
  );
  return false;
}
