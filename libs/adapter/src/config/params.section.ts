import { isAbsolute, resolve } from 'node:path';
import { isMap, isScalar } from 'yaml';
import { readApiCall } from './api-call.section.js';
import type { LoadContext } from './load-context.js';
import type { ParamSource, ParamSpec, ParamType } from './task-config.types.js';
import { itemMap, MapReader, nodeToJs } from './yaml-reader.js';

const TYPE_NAMES = ['string', 'int', 'int64', 'float', 'float64', 'bool'] as const;
const NORMALISED: Record<(typeof TYPE_NAMES)[number], ParamType> = {
  string: 'string',
  int: 'int',
  int64: 'int',
  float: 'float',
  float64: 'float',
  bool: 'bool',
};

/**
 * Resolves a string `source`: `event.<path>`, `env.<VAR>`, `config.<path>`, `<earlierParam>.<path>`,
 * else a bare event-data path (HyperFleet's fallback).
 */
function stringSource(text: string, earlier: ReadonlySet<string>): ParamSource | { error: string } {
  const segments = text.trim().split('.');
  const [head, ...rest] = segments as [string, ...string[]];
  if (head === 'env' && (rest.length !== 1 || rest[0] === '')) return { error: 'env source must be env.<VARIABLE>' };
  if (segments.some((s) => s === '')) return { error: `invalid source path ${JSON.stringify(text)}` };
  if (head === 'event') return rest.length ? { kind: 'event', path: rest } : { error: 'event source needs a path (event.<field>)' };
  if (head === 'env') {
    return rest.length === 1 ? { kind: 'env', variable: rest[0] as string } : { error: 'env source must be env.<VARIABLE>' };
  }
  if (head === 'config') return rest.length ? { kind: 'config', path: rest } : { error: 'config source needs a path (config.<field>)' };
  if (earlier.has(head)) return { kind: 'param', param: head, path: rest };
  return { kind: 'event', path: segments };
}

function mapSource(ctx: LoadContext, map: MapReader): ParamSource | undefined {
  const keys = map.keys();
  if (keys.length !== 1) {
    ctx.source.report(map.node, map.path, 'must have exactly one of expression, api_call, file');
  }
  let result: ParamSource | undefined;
  if (map.has('expression')) {
    const expr = ctx.cel(map, 'expression', { required: true });
    if (expr) result = { kind: 'expression', expr };
  }
  if (map.has('api_call')) {
    const call = map.map('api_call', { required: true });
    const apiCall = call && readApiCall(ctx, call);
    if (apiCall) result = { kind: 'api_call', apiCall };
  }
  if (map.has('file')) {
    const file = map.map('file', { required: true });
    if (file) {
      const path = file.string('path', { required: true });
      const trim = file.boolean('trim') ?? true;
      file.finish();
      // Relative to the config file, like `ref`/`build_ref` (a deployment mounts files beside it).
      if (path !== undefined) result = { kind: 'file', path: isAbsolute(path) ? path : resolve(ctx.baseDir, path), trim };
    }
  }
  map.finish();
  return result;
}

/**
 * `params[]`: `{name, source, type?, default?, required?, description?}`. Sources resolve in
 * order, so `<earlierParam>.<path>` may only name a param declared above.
 * @see HyperFleet: hyperfleet-adapter internal/configloader/types.go "params[]".
 */
export function readParams(ctx: LoadContext, root: MapReader): ParamSpec[] {
  const params: ParamSpec[] = [];
  const earlier = new Set<string>();
  for (const item of root.list('params')) {
    const map = itemMap(ctx.source, item);
    if (!map) continue;
    const name = map.string('name', { required: true });
    const sourceNode = map.valueNode('source');
    let source: ParamSource | undefined;
    if (sourceNode === undefined) {
      ctx.source.report(map.position, `${map.path}.source`, 'is required');
    } else if (isScalar(sourceNode) && typeof sourceNode.value === 'string') {
      const parsed = stringSource(sourceNode.value, earlier);
      if ('error' in parsed) ctx.source.report(sourceNode, `${map.path}.source`, parsed.error);
      else source = parsed;
    } else if (isMap(sourceNode)) {
      source = mapSource(ctx, new MapReader(ctx.source, sourceNode, `${map.path}.source`));
    } else {
      ctx.source.report(sourceNode, `${map.path}.source`, 'must be a string path or a mapping with expression, api_call or file');
    }
    const typeName = map.oneOf('type', TYPE_NAMES);
    const required = map.boolean('required') ?? false;
    const defaultNode = map.valueNode('default');
    const description = map.string('description', { allowEmpty: true });
    map.finish();
    if (name === undefined) continue;
    earlier.add(name);
    ctx.declare('param', name, map.valueNode('name'), `${map.path}.name`);
    if (source === undefined) continue;
    params.push({
      name,
      source,
      required,
      hasDefault: defaultNode !== undefined,
      ...(typeName !== undefined && { type: NORMALISED[typeName] }),
      ...(defaultNode !== undefined && { default: nodeToJs(defaultNode) }),
      ...(description !== undefined && { description }),
    });
  }
  return params;
}
