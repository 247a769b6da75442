import type { BundleStore } from './bundle-store.js';
import type { ManifestCondition, ResourceBundle, StatusFeedbackValue, WorkCondition } from './resource-bundle.js';

/** Key of one manifest's feedback: bundle id + kind + namespace + name. */
export function feedbackKey(id: string, kind: string, namespace: string, name: string): string {
  return `${id}/${kind}/${namespace}/${name}`;
}

function condition(type: string, reason: string, message: string, at: string, generation: number): WorkCondition {
  return { type, status: 'True', reason, message, lastTransitionTime: at, observedGeneration: generation };
}

/** Lower-case plural of a kind, as the agent's REST mapper would name the resource (approximate). */
function resourceOf(kind: string): string {
  const lower = kind.toLowerCase();
  return lower.endsWith('s') ? `${lower}es` : lower.endsWith('y') ? `${lower.slice(0, -1)}ies` : `${lower}s`;
}

/** The `ManifestBundleStatus` of a bundle whose manifests were all applied successfully. */
export function appliedStatus(
  bundle: ResourceBundle,
  feedback: ReadonlyMap<string, readonly StatusFeedbackValue[]>,
  at: string,
): NonNullable<ResourceBundle['status']> {
  const resourceStatus: ManifestCondition[] = bundle.manifests.map((manifest, ordinal) => {
    const apiVersion = String(manifest['apiVersion'] ?? '');
    const [group, version] = apiVersion.includes('/') ? (apiVersion.split('/') as [string, string]) : ['', apiVersion];
    const kind = String(manifest['kind'] ?? '');
    const meta = (manifest['metadata'] ?? {}) as { name?: string; namespace?: string };
    const name = meta.name ?? '';
    const namespace = meta.namespace ?? '';
    return {
      resourceMeta: { ordinal, group, version, kind, resource: resourceOf(kind), name, namespace },
      statusFeedback: { values: feedback.get(feedbackKey(bundle.id, kind, namespace, name)) ?? [] },
      conditions: [
        condition('Applied', 'AppliedManifestComplete', 'Apply manifest complete', at, bundle.version),
        condition('Available', 'ResourceAvailable', 'Resource is available', at, bundle.version),
      ],
    };
  });
  return {
    conditions: [
      condition('Applied', 'AppliedManifestWorkComplete', 'Apply manifest work complete', at, bundle.version),
      condition('Available', 'ResourcesAvailable', 'All resources are available', at, bundle.version),
    ],
    resourceStatus,
  };
}

/**
 * The simulated work agent on the consumer cluster: applies works (reports their status) and
 * confirms deletions, after `delayMs` on a timer, so deletion is asynchronous as with a real
 * Maestro: a deleted bundle stays (with `deleted_at`) until the agent confirms it.
 */
export class WorkAgent {
  readonly feedback = new Map<string, readonly StatusFeedbackValue[]>();
  private readonly pending = new Map<string, 'apply' | 'delete'>();
  private paused = false;
  private timer: NodeJS.Timeout | undefined;
  private waiters: (() => void)[] = [];

  constructor(
    private readonly store: BundleStore,
    private readonly delayMs: number,
    private readonly now: () => Date,
  ) {}

  apply(id: string): void {
    if (this.pending.get(id) !== 'delete') this.pending.set(id, 'apply');
    this.schedule();
  }

  delete(id: string): void {
    this.pending.set(id, 'delete');
    this.schedule();
  }

  /** Re-reports the status of an applied bundle (after its feedback changed). */
  refresh(id: string): void {
    const bundle = this.store.get(id);
    if (bundle?.status) this.store.setStatus(id, appliedStatus(bundle, this.feedback, this.now().toISOString()));
  }

  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    this.schedule();
  }

  /** Resolves when nothing is pending, or at once while paused (nothing happens until resumed). */
  settle(): Promise<void> {
    if (this.pending.size === 0 || this.paused) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.wake();
  }

  private schedule(): void {
    if (this.paused || this.timer || this.pending.size === 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.run();
    }, this.delayMs);
  }

  private run(): void {
    if (this.paused) return this.wake();
    const at = this.now().toISOString();
    for (const [id, action] of this.pending) {
      const bundle = this.store.get(id);
      if (bundle && action === 'delete') this.store.remove(id);
      else if (bundle && !bundle.deleted_at) this.store.setStatus(id, appliedStatus(bundle, this.feedback, at));
    }
    this.pending.clear();
    this.wake();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    waiters.forEach((resolve) => resolve());
  }
}
