import { EvaluationError, type Environment } from '@marcbachmann/cel-js';
import { toGoJson } from './cel-json.js';
import { mapGet } from './map-access.js';

/**
 * HyperFleet's clock-free custom functions, named and shaped exactly as in hyperfleet-adapter
 * (`now`, `conditionAge` and `stableFor` read the clock: activation-clock.ts, condition-functions.ts):
 * - `toJson(dyn) → string`: Go `json.Marshal` text (sorted keys; see cel-json.ts).
 * - `dig(dyn, "a.b.0.c") → dyn`: walks maps by key and lists by index; `null` when any step is missing.
 * - `statusFeedbackValue(feedback, name) → string`: the Maestro status-feedback value's
 *   `fieldValue.string`, `""` when absent (or not a string). `feedback` is
 *   `{ values: [{ name, fieldValue: { type, string|integer|boolean|jsonRaw } }] }` or that list itself.
 * - `triState(a, b) → string`: `"True"` when `a`, else `"False"` when `b`, else `"Unknown"`
 *   (hyperfleet-adapter: `isReady ? "True" : (isFailed ? "False" : "Unknown")`; `a` wins when both hold).
 * @see HyperFleet: hyperfleet-adapter docs/conventions/cel.md.
 */
export function registerHyperfleetFunctions(env: Environment): void {
  env
    .registerFunction('toJson(dyn): string', toGoJson)
    .registerFunction('dig(dyn, string): dyn', dig)
    .registerFunction('statusFeedbackValue(dyn, string): string', statusFeedbackValue)
    .registerFunction('triState(bool, bool): string', (isTrue: boolean, isFalse: boolean) =>
      isTrue ? 'True' : isFalse ? 'False' : 'Unknown',
    );
}

/** hyperfleet-adapter's digValue: blank path → the value itself; blank segments are skipped. */
function dig(root: unknown, path: string): unknown {
  let current = root;
  for (const rawPart of path.trim().split('.')) {
    const part = rawPart.trim();
    if (part === '') continue;
    if (Array.isArray(current)) {
      // Go's strconv.Atoi: optional sign, decimal digits.
      if (!/^[+-]?\d+$/.test(part)) return null;
      const index = Number(part);
      if (index < 0 || index >= current.length) return null;
      current = current[index];
    } else {
      current = mapGet(current, part);
      if (current === undefined) return null;
    }
  }
  return current ?? null;
}

function statusFeedbackValue(feedback: unknown, name: string): string {
  if (feedback === null) return '';
  const values = Array.isArray(feedback) ? feedback : mapGet(feedback, 'values');
  if (values === undefined || values === null) return '';
  if (!Array.isArray(values)) throw new EvaluationError('statusFeedbackValue(): feedback values must be a list');
  const value = values.find((v) => mapGet(v, 'name') === name);
  const text = mapGet(mapGet(value, 'fieldValue'), 'string');
  return typeof text === 'string' ? text : '';
}
