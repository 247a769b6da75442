import { isSeq } from 'yaml';
import { readApiCall, readLog } from './api-call.section.js';
import { parseFieldPath } from './field-path.js';
import type { LoadContext } from './load-context.js';
import { CONDITION_OPERATORS, type CaptureSpec, type ConditionSpec, type FieldPath, type PreconditionSpec } from './task-config.types.js';
import { itemMap, type MapReader, nodeToJs } from './yaml-reader.js';

/** Reads `map.field` as a dot path or `{JSONPath}`; records an issue when malformed. */
export function readField(ctx: LoadContext, map: MapReader, opts: { required?: boolean } = {}): FieldPath | undefined {
  const text = map.string('field', opts);
  if (text === undefined) return undefined;
  const parsed = parseFieldPath(text, `${map.path}.field`);
  if ('error' in parsed) {
    ctx.source.report(map.valueNode('field'), `${map.path}.field`, parsed.error);
    return undefined;
  }
  return parsed;
}

function readCapture(ctx: LoadContext, map: MapReader): CaptureSpec | undefined {
  const name = map.string('name', { required: true });
  if (name !== undefined) ctx.declare('capture', name, map.valueNode('name'), `${map.path}.name`);
  const hasField = map.has('field');
  const hasExpression = map.has('expression');
  if (hasField === hasExpression) {
    ctx.source.report(map.node, map.path, 'must have exactly one of field, expression');
  }
  const field = hasField ? readField(ctx, map) : undefined;
  const expression = hasExpression ? ctx.cel(map, 'expression') : undefined;
  const defaultNode = map.valueNode('default');
  map.finish();
  if (name === undefined || (field === undefined && expression === undefined)) return undefined;
  return {
    name,
    hasDefault: defaultNode !== undefined,
    ...(field && { field }),
    ...(expression && { expression }),
    ...(defaultNode !== undefined && { default: nodeToJs(defaultNode) }),
  };
}

function readCondition(ctx: LoadContext, map: MapReader): ConditionSpec | undefined {
  const field = readField(ctx, map, { required: true });
  const operator = map.oneOf('operator', CONDITION_OPERATORS, { required: true });
  if (map.has('value') && map.has('values')) {
    ctx.source.report(map.valueNode('values'), `${map.path}.values`, "use only one of 'value' and 'values'");
  }
  const key = map.has('values') ? 'values' : 'value';
  const valueNode = map.valueNode(key);
  map.valueNode('value');
  map.finish();
  if (operator === 'exists' || operator === 'notExists') {
    if (valueNode !== undefined) ctx.source.report(valueNode, `${map.path}.${key}`, `is not used by operator ${operator}`);
  } else if (valueNode === undefined) {
    ctx.source.report(map.position, `${map.path}.value`, `is required for operator ${operator ?? '?'}`);
  } else if ((operator === 'in' || operator === 'notIn') && !isSeq(valueNode)) {
    ctx.source.report(valueNode, `${map.path}.${key}`, `must be a list for operator ${operator}`);
  }
  if (field === undefined || operator === undefined) return undefined;
  return { field, operator, ...(valueNode !== undefined && { value: nodeToJs(valueNode) }) };
}

/**
 * `preconditions[]`: `{name, api_call?, capture[]?, conditions[]?, expression?, log?}`, at least one
 * of api_call / expression / conditions.
 * @see HyperFleet: hyperfleet-adapter internal/configloader/types.go "preconditions[]".
 */
export function readPreconditions(ctx: LoadContext, root: MapReader): PreconditionSpec[] {
  const result: PreconditionSpec[] = [];
  for (const item of root.list('preconditions')) {
    const map = itemMap(ctx.source, item);
    if (!map) continue;
    const name = map.string('name', { required: true });
    if (name !== undefined) ctx.declare('precondition', name, map.valueNode('name'), `${map.path}.name`);
    const callMap = map.map('api_call');
    const apiCall = callMap && readApiCall(ctx, callMap);
    if (name !== undefined && callMap) ctx.declare('response', name, map.valueNode('name'), `${map.path}.name`);
    const readScoped = () => {
      const captures = map
        .list('capture')
        .map((c) => itemMap(ctx.source, c))
        .map((c) => c && readCapture(ctx, c))
        .filter((c): c is CaptureSpec => c !== undefined);
      const conditions = map
        .list('conditions')
        .map((c) => itemMap(ctx.source, c))
        .map((c) => c && readCondition(ctx, c))
        .filter((c): c is ConditionSpec => c !== undefined);
      return { captures, conditions, expression: ctx.cel(map, 'expression') };
    };
    // With an api_call, the response's top-level keys are variables of this precondition too.
    const { captures, conditions, expression } = callMap ? ctx.withResponseScope(readScoped) : readScoped();
    const logMap = map.map('log');
    const log = logMap && readLog(ctx, logMap);
    if (!map.has('api_call') && !map.has('expression') && !map.has('conditions')) {
      ctx.source.report(map.position, map.path, 'must have at least one of api_call, expression, conditions');
    }
    map.finish();
    if (name === undefined) continue;
    result.push({
      name,
      captures,
      conditions,
      ...(apiCall && { apiCall }),
      ...(expression && { expression }),
      ...(log && { log }),
    });
  }
  return result;
}
