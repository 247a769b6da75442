import { parseGoDuration } from '@decom/config';
import type { LoadContext } from './load-context.js';
import type { ApiCallSpec, HttpMethod, LogLevel, LogSpec, RetryBackoff, TemplateText } from './task-config.types.js';
import { itemMap, type MapReader } from './yaml-reader.js';

const METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
export const RETRY_BACKOFFS: readonly RetryBackoff[] = ['exponential', 'linear', 'constant'];
const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warning', 'error'];

/** Reads a Go duration field (`"10s"`) into milliseconds; records an issue when malformed. */
export function readDuration(map: MapReader, key: string): number | undefined {
  const text = map.string(key);
  if (text === undefined) return undefined;
  const ms = parseGoDuration(text.trim());
  if (ms === undefined) {
    map.source.report(
      map.valueNode(key),
      `${map.path}.${key}`,
      `invalid duration ${JSON.stringify(text)} (use Go syntax such as "10s", "1m30s")`,
    );
  }
  return ms;
}

/**
 * `api_call: {method, url, timeout?, retry_attempts?, retry_backoff?, body?, headers?: [{name, value}]}`;
 * `url`, `body` and header values are Go templates.
 * @see HyperFleet: hyperfleet-adapter internal/configloader/types.go "APICall".
 */
export function readApiCall(ctx: LoadContext, map: MapReader): ApiCallSpec | undefined {
  const method = map.oneOf('method', METHODS, { required: true });
  const url = ctx.template(map, 'url', { required: true });
  const timeoutMs = readDuration(map, 'timeout');
  const retryAttempts = map.integer('retry_attempts', { min: 0 });
  const retryBackoff = map.oneOf('retry_backoff', RETRY_BACKOFFS);
  const body = ctx.template(map, 'body', { allowEmpty: true });
  const headers: { name: string; value: TemplateText }[] = [];
  for (const item of map.list('headers')) {
    const header = itemMap(map.source, item);
    if (!header) continue;
    const name = header.string('name', { required: true });
    const value = ctx.template(header, 'value', { required: true, allowEmpty: true });
    header.finish();
    if (name !== undefined && value !== undefined) headers.push({ name, value });
  }
  map.finish();
  if (method === undefined || url === undefined) return undefined;
  return {
    method,
    url,
    headers,
    ...(timeoutMs !== undefined && { timeoutMs }),
    ...(retryAttempts !== undefined && { retryAttempts }),
    ...(retryBackoff !== undefined && { retryBackoff }),
    ...(body !== undefined && { body }),
  };
}

/** `log: {message, level?}` (level defaults to `info`). */
export function readLog(ctx: LoadContext, map: MapReader): LogSpec | undefined {
  const message = ctx.template(map, 'message', { required: true });
  const level = map.oneOf('level', LOG_LEVELS) ?? 'info';
  map.finish();
  return message === undefined ? undefined : { message, level };
}

/** `when: {expression}` blocks used by lifecycle, payloads and post actions. */
export function readWhen(ctx: LoadContext, parent: MapReader, key = 'when', opts: { required?: boolean } = {}) {
  const when = parent.map(key, opts);
  if (!when) return undefined;
  const expr = ctx.cel(when, 'expression', { required: true });
  when.finish();
  return expr;
}
