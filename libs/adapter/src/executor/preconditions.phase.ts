import { ApiResourceNotFoundError } from '../api-client/api-errors.js';
import type { HyperfleetApiClient } from '../api-client/hyperfleet-api.types.js';
import { readFieldPath } from '../config/field-path.js';
import type { CaptureSpec, PreconditionSpec, TaskConfig } from '../config/task-config.types.js';
import { renderApiCall, sendApiCall } from './api-call.runner.js';
import { evaluateCondition } from './condition-operators.js';
import type { ExecutionContext } from './execution-context.js';

/**
 * What the executor does after the preconditions:
 * `continue` (all met), `skip-resources` (not met or failed: post actions still run),
 * `stop` (the resource is gone, 404: nothing else runs, no status is reported).
 */
export type PreconditionsOutcome = 'continue' | 'skip-resources' | 'stop';

function asOverlay(body: unknown): Record<string, unknown> {
  return body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

function capture(
  ctx: ExecutionContext,
  spec: CaptureSpec,
  response: unknown,
  hasResponse: boolean,
  overlay: Record<string, unknown>,
): void {
  let value: unknown;
  if (spec.field) {
    const field = readFieldPath(spec.field, hasResponse ? response : ctx.vars(overlay));
    value = field.found ? field.value : undefined;
  } else if (spec.expression) {
    const result = ctx.evaluate(spec.expression, overlay);
    value = result.ok ? result.value : undefined;
  }
  if ((value === undefined || value === null) && spec.hasDefault) value = spec.default;
  // No value and no default: the capture stays absent (HyperFleet warns and goes on).
  if (value !== undefined) ctx.params[spec.name] = value;
}

/** `undefined` when every condition holds, else why not. */
function unmetCondition(ctx: ExecutionContext, spec: PreconditionSpec, overlay: Record<string, unknown>): string | undefined {
  const data = ctx.vars(overlay);
  for (const condition of spec.conditions) {
    const field = readFieldPath(condition.field, data);
    const shown = `${condition.field.source} ${condition.operator}${condition.value === undefined ? '' : ` ${JSON.stringify(condition.value)}`}`;
    try {
      if (!evaluateCondition(condition.operator, field, condition.value)) {
        return `${shown} (got ${field.found ? JSON.stringify(field.value) : 'nothing'})`;
      }
    } catch (error) {
      // Like CEL runtime errors, a condition that cannot be evaluated is "not met", not a failure.
      return `${shown}: ${(error as Error).message}`;
    }
  }
  if (spec.expression) {
    const result = ctx.evaluate(spec.expression, overlay);
    if (!result.ok) return `expression error: ${result.error}`;
    if (result.value !== true) return `expression evaluated to ${JSON.stringify(result.value)}`;
  }
  return undefined;
}

/**
 * Phase 2: preconditions in order, stopping at the first one not met.
 * - `api_call` 404 (not NTF-000) → `resourcesSkipped`, `skipReason=ResourceNotFound`, stop everything (§2.5, P6);
 * - other API error or a non-JSON body → `PreconditionFailed`, resources skipped, post actions run;
 * - not met (incl. CEL evaluation errors) → success, resources skipped, post actions run.
 * The response is stored as param `<name>`; its top-level keys are variables for captures,
 * conditions and the expression of the same precondition.
 */
export async function runPreconditions(ctx: ExecutionContext, task: TaskConfig, api: HyperfleetApiClient): Promise<PreconditionsOutcome> {
  for (const spec of task.preconditions) {
    let response: unknown;
    if (spec.apiCall) {
      try {
        response = (await sendApiCall(ctx, api, spec.apiCall, renderApiCall(ctx, spec.apiCall))).body;
        if (typeof response !== 'object' || response === null) throw new Error(`response of ${spec.apiCall.method} is not a JSON object`);
      } catch (error) {
        if (error instanceof ApiResourceNotFoundError) {
          ctx.markSkipped('ResourceNotFound');
          ctx.recorder.phase({ phase: 'preconditions', status: 'success', detail: `${spec.name}: ${error.message}` });
          return 'stop';
        }
        const message = `precondition '${spec.name}': ${(error as Error).message}`;
        ctx.fail('PreconditionFailed', { phase: 'preconditions', step: spec.name, message });
        ctx.markSkipped(message);
        ctx.recorder.phase({ phase: 'preconditions', status: 'failed', detail: message });
        return 'skip-resources';
      }
      ctx.params[spec.name] = response;
      ctx.offerResourceResponse(spec.name, response);
    }
    const overlay = asOverlay(response);
    for (const captureSpec of spec.captures) capture(ctx, captureSpec, response, spec.apiCall !== undefined, overlay);
    if (spec.log) {
      try {
        ctx.recorder.log({ level: spec.log.level, message: ctx.render(spec.log.message, overlay), where: spec.log.message.where });
      } catch (error) {
        ctx.recorder.log({ level: 'error', message: `log message failed: ${(error as Error).message}`, where: spec.log.message.where });
      }
    }
    const unmet = unmetCondition(ctx, spec, overlay);
    if (unmet !== undefined) {
      const reason = `precondition '${spec.name}' not met: ${unmet}`;
      ctx.markSkipped(reason);
      ctx.recorder.phase({ phase: 'preconditions', status: 'success', detail: reason });
      return 'skip-resources';
    }
  }
  ctx.recorder.phase({ phase: 'preconditions', status: 'success' });
  return 'continue';
}
