/**
 * HyperFleet condition mapping (hyperfleet-api `docs/condition-mapping.md`): evaluates a
 * kind's compiled `conditions:` rules against the resource's adapter statuses and the resource itself,
 * giving the mapped conditions appended to `status.conditions` after Reconciled/LastKnownReconciled.
 * Pure (time comes from the caller: the event being projected), so a replay yields the same rows.
 */
import { MAPPED_CONDITION_LIMITS, type AdapterStatus, type ConditionMappingRule, type ResourceCondition } from '@decom/domain';

/** HyperFleet's masked key patterns (case-insensitive substrings), "Automatic Sensitive Data Masking". */
export const SENSITIVE_KEY_PATTERNS = [
  'password',
  'secret',
  'token',
  'credential',
  'apikey',
  'api_key',
  'privatekey',
  'secretkey',
  'accesskey',
  'sshkey',
  'encryptionkey',
  'accountkey',
  'servicekey',
  'registrykey',
  'signingkey',
  'cert',
  'kubeconfig',
  'auth',
  'private',
  'connection',
  'bearer',
  'passphrase',
] as const;
export const REDACTED = '***REDACTED***';
const MASK_DEPTH = 20;

/** One rule that produced nothing for this report, and why (the caller logs it). */
export interface SkippedRule {
  readonly type: string;
  readonly reason: string;
}

export interface ConditionMappingInput {
  readonly rules: readonly ConditionMappingRule[];
  /** Every adapter status stored for the resource (any order; evaluated sorted by adapter). */
  readonly statuses: readonly AdapterStatus[];
  /** The resource as its JSON map (masked here before CEL sees it). */
  readonly resource: Readonly<Record<string, unknown>>;
  /** The resource's current generation (`observed_generation` of every mapped condition). */
  readonly generation: number;
  /** The resource's conditions before this report: mapped conditions keep `created_time`/`last_transition_time`. */
  readonly previous: readonly ResourceCondition[];
  /** RFC 3339 time of the report (the projected event's time); also CEL's `now()`. */
  readonly now: string;
}

export interface ConditionMappingResult {
  /** In rule order. A skipped rule keeps its previous condition (if any); a rule whose `when` is false has none. */
  readonly conditions: ResourceCondition[];
  readonly skipped: SkippedRule[];
  /** Types whose message was cut to 2048 characters. */
  readonly truncated: string[];
}

/**
 * Evaluates every rule once. Never throws: a CEL evaluation error, a `when` that is not a boolean, a
 * status other than True/False (case-insensitive), a non-string or > 256-character reason skip that rule
 * for this report; a message longer than 2048 characters is truncated (never inside a surrogate pair).
 * `last_updated_time` is `now` on every evaluation that produces the condition; `last_transition_time`
 * changes only when `status` does.
 */
export function mapConditions(input: ConditionMappingInput): ConditionMappingResult {
  const previous = new Map(input.previous.map((c) => [c.type, c]));
  const vars = { statuses: celStatuses(input.statuses), resource: maskSensitive(input.resource) };
  const options = { now: () => new Date(input.now) };
  const conditions: ResourceCondition[] = [];
  const skipped: SkippedRule[] = [];
  const truncated: string[] = [];
  for (const rule of input.rules) {
    const prev = previous.get(rule.type);
    const skip = (reason: string) => {
      skipped.push({ type: rule.type, reason });
      if (prev) conditions.push(prev);
    };
    try {
      const when = rule.when.evaluate(vars, options);
      if (typeof when !== 'boolean') {
        skip(`when.expression gave ${describe(when)}, not a bool`);
        continue;
      }
      if (!when) continue;
      const status = normalizeStatus(rule.status.evaluate(vars, options));
      if (!status) {
        skip('output.status.expression must give "True" or "False"');
        continue;
      }
      const reason = rule.reason.evaluate(vars, options);
      if (typeof reason !== 'string') {
        skip(`output.reason.expression gave ${describe(reason)}, not a string`);
        continue;
      }
      if (reason.length > MAPPED_CONDITION_LIMITS.reason) {
        skip(`reason is ${reason.length} characters, more than ${MAPPED_CONDITION_LIMITS.reason}`);
        continue;
      }
      const rawMessage = rule.message.evaluate(vars, options);
      if (typeof rawMessage !== 'string') {
        skip(`output.message.expression gave ${describe(rawMessage)}, not a string`);
        continue;
      }
      const message = truncate(rawMessage, MAPPED_CONDITION_LIMITS.message);
      if (message.length < rawMessage.length) truncated.push(rule.type);
      conditions.push({
        type: rule.type,
        status,
        reason,
        message,
        observed_generation: input.generation,
        created_time: prev?.created_time ?? input.now,
        last_updated_time: input.now,
        last_transition_time: prev && prev.status === status ? prev.last_transition_time : input.now,
      });
    } catch (error) {
      skip(error instanceof Error ? error.message : String(error));
    }
  }
  return { conditions, skipped, truncated };
}

/** The `statuses` variable: Unknown conditions dropped, `data` masked, sorted by adapter. */
function celStatuses(statuses: readonly AdapterStatus[]): unknown[] {
  return [...statuses]
    .sort((a, b) => (a.adapter < b.adapter ? -1 : a.adapter > b.adapter ? 1 : 0))
    .map((s) => ({
      adapter: s.adapter,
      observed_generation: s.observed_generation,
      conditions: s.conditions
        .filter((c) => c.status === 'True' || c.status === 'False')
        .map((c) => ({ type: c.type, status: c.status, reason: c.reason ?? '', message: c.message ?? '' })),
      data: maskSensitive(s.data ?? {}),
    }));
}

/**
 * Replaces the value of every map key matching `SENSITIVE_KEY_PATTERNS` with `***REDACTED***`, through
 * nested maps and lists. HyperFleet traverses 20 levels; anything deeper is redacted whole here
 * (over-masking rather than leaking, HyperFleet's own trade-off).
 */
export function maskSensitive<T>(value: T, depth = 0): T {
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MASK_DEPTH) return REDACTED as T;
  if (Array.isArray(value)) return value.map((v) => maskSensitive(v, depth + 1)) as T;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    const lower = key.toLowerCase();
    out[key] = SENSITIVE_KEY_PATTERNS.some((p) => lower.includes(p)) ? REDACTED : maskSensitive(v, depth + 1);
  }
  return out as T;
}

function normalizeStatus(value: unknown): 'True' | 'False' | undefined {
  if (typeof value !== 'string') return undefined;
  const lower = value.toLowerCase();
  return lower === 'true' ? 'True' : lower === 'false' ? 'False' : undefined;
}

function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

function describe(value: unknown): string {
  return value === null ? 'null' : typeof value === 'string' ? JSON.stringify(value) : typeof value;
}
