/**
 * The dependencies a process needs (PostgreSQL or SQLite, Redis, Kubernetes, the JWKS), probed in the
 * background so `/readyz` and `/metrics` answer from cached results and never wait on a network call.
 * Each probe runs every `intervalMs` with its own `timeoutMs`; a probe still in flight is not started again
 * (a silent server holds one call, not one per tick). A state change (up ↔ down ↔ unknown, or a new reason)
 * is reported once through `onChange`, never per probe.
 *
 * Self-contained: no Nest, no engine. A start-up that waits for a dependency may build one and `await
 * probeOnce()` or poll `result(name)`.
 */

/** The `dependency` label of `decom_dependency_up` and the key in `/readyz`'s `checks.dependencies`. */
export type DependencyName = 'postgres' | 'sqlite' | 'eventstoredb' | 'redis' | 'kubernetes' | 'jwks';

/** What a probe found when it answered: `up`, or `down`/`unknown` with why (a wrong setting, not a lost connection). */
export type ProbeVerdict =
  | { readonly status: 'up'; readonly detail?: Readonly<Record<string, unknown>> }
  | { readonly status: 'down' | 'unknown'; readonly reason: string; readonly detail?: Readonly<Record<string, unknown>> };

export interface DependencyProbe {
  readonly dependency: DependencyName;
  /**
   * False: the result is shown and exported as a metric but does not make the process unready (Kubernetes:
   * the adapters' runs back off and retry, the API still serves).
   */
  readonly affectsReadiness: boolean;
  /**
   * One check. Resolves with a verdict (or nothing: up); a rejection means down, with its message as reason.
   * `signal` aborts when the probe's time is up (a probe may pass it on to fetch).
   */
  check(signal: AbortSignal): Promise<ProbeVerdict | void>;
}

/** The cached result of one dependency, as `/readyz` serves it. Times are RFC 3339 UTC. */
export interface ProbeResult {
  readonly dependency: DependencyName;
  readonly status: 'up' | 'down' | 'unknown';
  /** Why not up (absent when up). */
  readonly reason?: string;
  /** Since when the status (and reason) has been what it is. */
  readonly since: string;
  /** When the last probe of it settled (or timed out); absent before the first. */
  readonly checked_at?: string;
  readonly affects_readiness: boolean;
  readonly detail?: Readonly<Record<string, unknown>>;
}

export interface DependencyProbesOptions {
  /** Pause between two probes of one dependency, ms (default 1000). */
  readonly intervalMs?: number;
  /** Time one probe may take before it counts as down, ms (default 1000). */
  readonly timeoutMs?: number;
  /** A dependency's status or reason changed (once per change). */
  readonly onChange?: (current: ProbeResult, previous: ProbeResult) => void;
  readonly now?: () => Date;
}

/** Default probe period and bound, ms: a stopped dependency shows in `/readyz` within about two seconds. */
export const PROBE_INTERVAL_MS = 1_000;
export const PROBE_TIMEOUT_MS = 1_000;

interface Slot {
  readonly probe: DependencyProbe;
  result: ProbeResult;
  inFlight?: Promise<void>;
  startedAtMs?: number;
}

export class DependencyProbes {
  private readonly slots: Slot[];
  private timer?: NodeJS.Timeout;
  private readonly intervalMs: number;
  private readonly timeoutMs: number;
  private readonly now: () => Date;

  constructor(
    probes: readonly DependencyProbe[],
    private readonly options: DependencyProbesOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? PROBE_INTERVAL_MS;
    this.timeoutMs = options.timeoutMs ?? PROBE_TIMEOUT_MS;
    this.now = options.now ?? (() => new Date());
    const since = this.now().toISOString();
    this.slots = probes.map((probe) => ({
      probe,
      result: {
        dependency: probe.dependency,
        status: 'unknown',
        reason: 'not probed yet',
        since,
        affects_readiness: probe.affectsReadiness,
      },
    }));
  }

  /** Probes every dependency once (each bounded by `timeoutMs`); resolves when all have a result. */
  async probeOnce(): Promise<void> {
    await Promise.all(this.slots.map((slot) => this.probe(slot)));
  }

  /** Starts the background probing (a first round at once). Idempotent. */
  start(): void {
    if (this.timer) return;
    const tick = () => {
      for (const slot of this.slots) void this.probe(slot);
    };
    tick();
    this.timer = setInterval(tick, this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Every dependency's last result, in the order the probes were given. Never waits. */
  results(): readonly ProbeResult[] {
    return this.slots.map((slot) => slot.result);
  }

  result(dependency: DependencyName): ProbeResult | undefined {
    return this.slots.find((slot) => slot.probe.dependency === dependency)?.result;
  }

  /** The results that make the process unready now (down or unknown, and `affects_readiness`). */
  failing(): readonly ProbeResult[] {
    return this.results().filter((result) => result.affects_readiness && result.status !== 'up');
  }

  private probe(slot: Slot): Promise<void> {
    if (slot.inFlight) {
      // The last probe has not settled: a silent dependency, reported as down once its time is up.
      if (slot.startedAtMs !== undefined && Date.now() - slot.startedAtMs > this.timeoutMs)
        this.record(slot, { status: 'down', reason: `no answer within ${this.timeoutMs} ms` });
      return slot.inFlight;
    }
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<ProbeVerdict>((resolve) => {
      timer = setTimeout(() => {
        controller.abort();
        resolve({ status: 'down', reason: `no answer within ${this.timeoutMs} ms` });
      }, this.timeoutMs);
    });
    const call = slot.probe
      .check(controller.signal)
      .then((verdict): ProbeVerdict => verdict ?? { status: 'up' })
      .catch((error: unknown): ProbeVerdict => ({ status: 'down', reason: firstLine(error) }));
    slot.startedAtMs = Date.now();
    // The slot stays busy until the call itself settles; the answer is recorded at once or at the timeout.
    const settled = call.finally(() => {
      slot.inFlight = undefined;
      slot.startedAtMs = undefined;
    });
    slot.inFlight = settled.then(() => undefined);
    return Promise.race([call, timedOut]).then((verdict) => {
      clearTimeout(timer);
      this.record(slot, verdict);
    });
  }

  private record(slot: Slot, verdict: ProbeVerdict): void {
    const previous = slot.result;
    const at = this.now().toISOString();
    const reason = verdict.status === 'up' ? undefined : verdict.reason;
    const isChange = previous.status !== verdict.status || previous.reason !== reason;
    slot.result = {
      dependency: slot.probe.dependency,
      status: verdict.status,
      ...(reason !== undefined ? { reason } : {}),
      since: isChange ? at : previous.since,
      checked_at: at,
      affects_readiness: slot.probe.affectsReadiness,
      ...(verdict.detail ? { detail: verdict.detail } : {}),
    };
    if (isChange) this.options.onChange?.(slot.result, previous);
  }
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message || error.name : String(error);
  return text.split('\n')[0] || 'failed';
}
