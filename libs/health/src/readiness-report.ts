/** `/readyz`'s answer: `ready` only when every dependency that affects readiness is up; details name the rest. */
export interface ReadinessReport {
  readonly status: 'ready' | 'not_ready';
  readonly [detail: string]: unknown;
}
