import { isMap, isScalar, isSeq } from 'yaml';
import type { Node, Scalar, YAMLMap, YAMLSeq } from 'yaml';
import { readField } from './preconditions.section.js';
import type { LoadContext } from './load-context.js';
import type { TemplateTree, ValueDefinition } from './task-config.types.js';
import { joinPath, MapReader, nodeToJs } from './yaml-reader.js';

function readValueDefinition(ctx: LoadContext, map: MapReader): ValueDefinition {
  const hasExpression = map.has('expression');
  if (hasExpression && map.has('field')) {
    ctx.source.report(map.node, map.path, 'a value definition has exactly one of expression, field');
  }
  const expression = hasExpression ? ctx.cel(map, 'expression') : undefined;
  const field = map.has('field') ? readField(ctx, map) : undefined;
  const defaultNode = map.valueNode('default');
  for (const key of map.keys()) {
    if (!['expression', 'field', 'default'].includes(key)) {
      // A map with `expression`/`field` is a value definition; anything else beside them is a typo.
      ctx.source.report(
        (map.node as YAMLMap).items.find((p) => (p.key as Scalar).value === key)?.key as Node,
        joinPath(map.path, key),
        'unknown field in value definition (allowed: expression | field, default)',
      );
      map.valueNode(key);
    }
  }
  return {
    where: map.path,
    hasDefault: defaultNode !== undefined,
    ...(expression && { expression }),
    ...(field && { field }),
    ...(defaultNode !== undefined && { default: nodeToJs(defaultNode) }),
  };
}

/**
 * Turns a YAML subtree into a template tree: strings (and map keys) become Go templates,
 * numbers/booleans/null stay literal. With `valueDefinitions` (payload `build`), a map holding
 * `expression` or `field` is a typed value definition.
 * @see HyperFleet: hyperfleet-adapter internal/configloader/types.go "post.payloads[]".
 */
export function readTemplateTree(ctx: LoadContext, node: Node, path: string, valueDefinitions: boolean): TemplateTree | undefined {
  if (isScalar(node)) {
    const value = (node as Scalar).value;
    if (typeof value === 'string') {
      const text = ctx.templateAt(node, value, path);
      return text && { kind: 'text', text };
    }
    if (value === null || typeof value === 'number' || typeof value === 'boolean') return { kind: 'literal', value };
    ctx.source.report(node, path, `unsupported YAML value ${JSON.stringify(nodeToJs(node))}`);
    return undefined;
  }
  if (isSeq(node)) {
    const items = (node as YAMLSeq<Node>).items.map((item, i) => readTemplateTree(ctx, item, joinPath(path, i), valueDefinitions));
    return items.every((i) => i !== undefined) ? { kind: 'list', items: items as TemplateTree[] } : undefined;
  }
  if (isMap(node)) {
    const reader = new MapReader(ctx.source, node as YAMLMap, path);
    if (valueDefinitions && (reader.has('expression') || reader.has('field'))) {
      return { kind: 'value', def: readValueDefinition(ctx, reader) };
    }
    const entries: { key: NonNullable<ReturnType<LoadContext['scalarTemplate']>>; value: TemplateTree }[] = [];
    let ok = true;
    for (const pair of (node as YAMLMap<Node, Node>).items) {
      const keyNode = pair.key as Node;
      const keyText = isScalar(keyNode) ? String((keyNode as Scalar).value) : '?';
      const childPath = joinPath(path, keyText);
      const key = ctx.scalarTemplate(keyNode, childPath);
      const valueNode = pair.value ?? null;
      const value: TemplateTree | undefined =
        valueNode === null ? { kind: 'literal', value: null } : readTemplateTree(ctx, valueNode, childPath, valueDefinitions);
      if (key === undefined || value === undefined) ok = false;
      else entries.push({ key, value });
    }
    return ok ? { kind: 'map', entries } : undefined;
  }
  ctx.source.report(node, path, 'YAML aliases are not supported in task configs');
  return undefined;
}
