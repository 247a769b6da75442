import type { TaskConfig } from './task-config.types.js';

/**
 * The `env.<VAR>` sources of required params (without a default) whose variable is unset in `env`:
 * every run of the adapter would fail its param extraction (HyperFleet's loader refuses it). Sorted, no duplicates.
 */
export function unsetRequiredEnv(task: TaskConfig, env: Readonly<Record<string, string | undefined>>): string[] {
  const unset = new Set<string>();
  for (const param of task.params) {
    if (param.source.kind === 'env' && param.required && !param.hasDefault && env[param.source.variable] === undefined) {
      unset.add(param.source.variable);
    }
  }
  return [...unset].sort();
}
