import { readFile, stat } from 'node:fs/promises';
import type { HyperfleetApiClient } from '../api-client/hyperfleet-api.types.js';
import type { ParamSpec, ParamType, TaskConfig } from '../config/task-config.types.js';
import { renderApiCall, sendApiCall } from './api-call.runner.js';
import type { ExecutionContext } from './execution-context.js';

/** Files larger than this are refused: a param is a value, not a payload. */
const MAX_PARAM_FILE_BYTES = 1024 * 1024;

class ParamError extends Error {}

function walk(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = Array.isArray(current) && /^\d+$/.test(segment) ? current[Number(segment)] : (current as Record<string, unknown>)[segment];
  }
  return current;
}

/**
 * Converts a value to the declared type. Booleans accept true/false, yes/no, on/off, 1/0.
 * @throws ParamError when the value cannot be converted.
 */
export function convertParam(value: unknown, type: ParamType): unknown {
  const fail = (): never => {
    throw new ParamError(`cannot convert ${JSON.stringify(value)} to ${type}`);
  };
  switch (type) {
    case 'string':
      return typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : fail();
    case 'int': {
      if (typeof value === 'number') return Number.isInteger(value) ? value : fail();
      if (typeof value === 'string' && /^[-+]?\d+$/.test(value.trim())) return Number.parseInt(value.trim(), 10);
      return fail();
    }
    case 'float': {
      if (typeof value === 'number') return value;
      const n = typeof value === 'string' && value.trim() !== '' ? Number(value.trim()) : NaN;
      return Number.isFinite(n) ? n : fail();
    }
    case 'bool': {
      if (typeof value === 'boolean') return value;
      const text = String(value).trim().toLowerCase();
      if (['true', 'yes', 'on', '1'].includes(text)) return true;
      if (['false', 'no', 'off', '0'].includes(text)) return false;
      return fail();
    }
  }
}

async function readParamFile(path: string, trim: boolean): Promise<string> {
  const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
    throw new ParamError(`cannot read file ${path}: ${error.code ?? error.message}`);
  });
  if (info.size > MAX_PARAM_FILE_BYTES) throw new ParamError(`file ${path} is larger than ${MAX_PARAM_FILE_BYTES} bytes`);
  const text = await readFile(path, 'utf8');
  const value = trim ? text.trim() : text;
  if (value === '') throw new ParamError(`file ${path} is empty`);
  return value;
}

/** Raw value of a param's source (`undefined` = absent). */
async function resolveSource(ctx: ExecutionContext, api: HyperfleetApiClient, param: ParamSpec): Promise<unknown> {
  const source = param.source;
  switch (source.kind) {
    case 'event':
      return walk(ctx.inputs.event, source.path);
    case 'env': {
      const value = ctx.inputs.env[source.variable];
      if (value === undefined) throw new ParamError(`environment variable ${source.variable} is not set`);
      return value;
    }
    case 'config':
      return walk(ctx.inputs.config, source.path);
    case 'param':
      return walk(ctx.params[source.param], source.path);
    case 'expression': {
      const result = ctx.evaluate(source.expr);
      if (!result.ok) throw new ParamError(result.error);
      return result.value;
    }
    case 'api_call': {
      const response = await sendApiCall(ctx, api, source.apiCall, renderApiCall(ctx, source.apiCall));
      return response.body;
    }
    case 'file':
      return readParamFile(source.path, source.trim);
  }
}

/**
 * Phase 1: resolves params in order. A failing or empty source falls back to `default`; a
 * `required` param without a value fails the execution (`ParameterExtractionFailed`, nothing
 * else runs, not even post actions: §2.5). Conversion applies only when `type` is given and the
 * source is a path or a file (expressions and API responses keep their JSON type).
 * @returns false when the execution must stop.
 */
export async function extractParams(ctx: ExecutionContext, task: TaskConfig, api: HyperfleetApiClient): Promise<boolean> {
  for (const param of task.params) {
    let value: unknown;
    let failure: string | undefined;
    try {
      value = await resolveSource(ctx, api, param);
      const converts = param.source.kind !== 'expression' && param.source.kind !== 'api_call';
      if (param.type && converts && value !== undefined && value !== null && value !== '') value = convertParam(value, param.type);
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error);
      value = undefined;
    }
    if (value === undefined || value === null || value === '') {
      if (param.hasDefault) {
        ctx.params[param.name] = param.default;
        continue;
      }
      if (param.required) {
        const message = `param "${param.name}": ${failure ?? 'no value (required)'}`;
        ctx.fail('ParameterExtractionFailed', { phase: 'param_extraction', step: param.name, message });
        ctx.recorder.phase({ phase: 'param_extraction', status: 'failed', detail: message });
        return false;
      }
      // Optional and empty: leave it out, so `has()`/`?.` see it as absent.
      continue;
    }
    ctx.params[param.name] = value;
  }
  ctx.recorder.phase({ phase: 'param_extraction', status: 'success' });
  return true;
}
