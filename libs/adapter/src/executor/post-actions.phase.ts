import { ApiResourceNotFoundError } from '../api-client/api-errors.js';
import type { HyperfleetApiClient } from '../api-client/hyperfleet-api.types.js';
import type { PostActionSpec, TaskConfig, TemplateText } from '../config/task-config.types.js';
import { renderApiCall, sendApiCall } from './api-call.runner.js';
import type { ExecutionContext } from './execution-context.js';
import { guardFinalized } from './finalized-guard.js';
import { renderTree } from './render-tree.js';
import { applyStatusOverrides } from './status-overrides.js';

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

function parseMaybeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Builds payloads in order; each becomes a JSON *string* param of its name (for
 * `body: '{{ .statusPayload }}'`). `when` false → not built. A value definition that fails to
 * evaluate (no `default`) becomes `null`, logged as a warning (HyperFleet). A `Finalized=True` condition is
 * withheld unless the pass was complete and successful (finalized-guard.ts); then Decom's policy
 * overrides apply (status-overrides.ts).
 * @returns the names skipped by `when`, or `undefined` when a build failed (recorded).
 */
function buildPayloads(ctx: ExecutionContext, task: TaskConfig): Set<string> | undefined {
  const skipped = new Set<string>();
  for (const payload of task.post.payloads) {
    if (payload.when) {
      const when = ctx.evaluate(payload.when);
      if (!when.ok || typeof when.value !== 'boolean') {
        const text = `payload '${payload.name}' when: ${when.ok ? `must be a bool, got ${JSON.stringify(when.value)}` : when.error}`;
        ctx.fail('PayloadBuildFailed', { phase: 'post_actions', step: 'build_payloads', message: text });
        ctx.recorder.phase({ phase: 'post_actions', status: 'failed', detail: text });
        return undefined;
      }
      if (!when.value) {
        skipped.add(payload.name);
        continue;
      }
    }
    try {
      // HyperFleet: a field that fails to evaluate is null and the status is still sent (logged here).
      const failures: string[] = [];
      const rendered = renderTree(ctx, payload.build, failures);
      for (const failure of failures)
        ctx.recorder.log({
          level: 'warning',
          message: `payload '${payload.name}': ${failure}: evaluates to null`,
          where: `post.payloads.${payload.name}`,
        });
      const { payload: guarded, withheld } = guardFinalized(rendered, ctx, failures);
      if (withheld)
        ctx.recorder.log({
          level: 'warning',
          message: `payload '${payload.name}': Finalized=True withheld: ${withheld}`,
          where: `post.payloads.${payload.name}`,
        });
      const built = applyStatusOverrides(payload.name, guarded, ctx);
      ctx.recorder.payloads[payload.name] = built;
      ctx.params[payload.name] = JSON.stringify(built);
    } catch (error) {
      const text = `payload '${payload.name}': ${message(error)}`;
      ctx.fail('PayloadBuildFailed', { phase: 'post_actions', step: 'build_payloads', message: text });
      ctx.recorder.phase({ phase: 'post_actions', status: 'failed', detail: text });
      return undefined;
    }
  }
  return skipped;
}

/** Whether any template of the action (call or log) names a payload that `when` left unbuilt. */
function usesSkippedPayload(action: PostActionSpec, skipped: ReadonlySet<string>): boolean {
  const texts: (TemplateText | undefined)[] = [
    action.apiCall?.url,
    action.apiCall?.body,
    ...(action.apiCall?.headers.map((h) => h.value) ?? []),
    action.log?.message,
  ];
  return texts.some((t) =>
    t?.compiled?.referencedVariables().some((v: string) => skipped.has(v.replace(/^[.$]+/, '').split('.')[0] ?? '')),
  );
}

/**
 * Phase 4: build payloads (a failure aborts the phase: `executionError{post_actions,
 * build_payloads}`, no status is reported), then run post actions in order:
 * `when` false → skipped; a body naming an unbuilt payload → skipped; API 404 (not NTF-000) →
 * `resourcesSkipped/ResourceNotFound`, remaining actions skipped; other failures → result
 * failed, remaining actions skipped.
 * @see HyperFleet: hyperfleet-adapter internal/configloader/types.go "post", internal/executor/resource_executor.go.
 */
export async function runPostActions(ctx: ExecutionContext, task: TaskConfig, api: HyperfleetApiClient): Promise<void> {
  const skipped = buildPayloads(ctx, task);
  if (!skipped) return;
  for (const action of task.post.postActions) {
    if (action.when) {
      const when = ctx.evaluate(action.when);
      if (!when.ok || typeof when.value !== 'boolean') {
        const text = `post action '${action.name}' when: ${when.ok ? `must be a bool, got ${JSON.stringify(when.value)}` : when.error}`;
        ctx.fail('PostActionFailed', { phase: 'post_actions', step: action.name, message: text });
        ctx.recorder.phase({ phase: 'post_actions', status: 'failed', detail: text });
        return;
      }
      if (!when.value) continue;
    }
    if (usesSkippedPayload(action, skipped)) continue;
    try {
      if (action.log) {
        ctx.recorder.log({ level: action.log.level, message: ctx.render(action.log.message), where: action.log.message.where });
      }
      if (action.apiCall) {
        const call = renderApiCall(ctx, action.apiCall);
        await sendApiCall(ctx, api, action.apiCall, call);
        if (call.body !== undefined) ctx.recorder.statusReports.push(parseMaybeJson(call.body));
      }
    } catch (error) {
      if (error instanceof ApiResourceNotFoundError) {
        ctx.markSkipped('ResourceNotFound');
        ctx.recorder.phase({ phase: 'post_actions', status: 'success', detail: `${action.name}: ${error.message}` });
        return;
      }
      const text = `post action '${action.name}': ${message(error)}`;
      ctx.fail('PostActionFailed', { phase: 'post_actions', step: action.name, message: text });
      ctx.recorder.phase({ phase: 'post_actions', status: 'failed', detail: text });
      return;
    }
  }
  ctx.recorder.phase({ phase: 'post_actions', status: 'success' });
}
