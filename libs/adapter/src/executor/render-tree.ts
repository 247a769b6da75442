import { parse as parseYaml } from 'yaml';
import { readFieldPath } from '../config/field-path.js';
import type { ManifestSpec, TemplateTree, ValueDefinition } from '../config/task-config.types.js';
import type { KubeObject } from '../transport/resource-transport.port.js';
import type { ExecutionContext } from './execution-context.js';

/** A value definition could not be evaluated and has no `default`. */
export class ValueDefinitionError extends Error {}

/** A rendered manifest is not a Kubernetes object. */
export class ManifestError extends Error {}

/** Collects value definitions that failed to evaluate (payload builds: each becomes `null`, HyperFleet's behaviour). */
export type ValueFailures = string[];

function evaluateValue(ctx: ExecutionContext, def: ValueDefinition, failures?: ValueFailures): unknown {
  let failure: string | undefined;
  let value: unknown;
  if (def.expression) {
    const result = ctx.evaluate(def.expression);
    if (result.ok) value = result.value;
    else failure = result.error;
  } else if (def.field) {
    const field = readFieldPath(def.field, ctx.vars());
    if (field.found) value = field.value;
    else failure = `field ${def.field.source} not found`;
  }
  if (failure !== undefined || value === null || value === undefined) {
    if (def.hasDefault) return def.default;
    if (failure !== undefined && failures) {
      failures.push(`${def.where}: ${failure}`);
      return null;
    }
    if (failure !== undefined) throw new ValueDefinitionError(`${def.where}: ${failure}`);
  }
  return value ?? null;
}

/**
 * Renders a template tree: strings and keys through the template engine, value definitions
 * through CEL or a field path. A value definition that fails without `default` throws, unless
 * `failures` is given (payload builds): then it is recorded there and becomes `null` (HyperFleet).
 * @throws TemplateExecError, ValueDefinitionError.
 */
export function renderTree(ctx: ExecutionContext, tree: TemplateTree, failures?: ValueFailures): unknown {
  switch (tree.kind) {
    case 'text':
      return ctx.render(tree.text);
    case 'literal':
      return tree.value;
    case 'list':
      return tree.items.map((item) => renderTree(ctx, item, failures));
    case 'value':
      return evaluateValue(ctx, tree.def, failures);
    case 'map': {
      const out: Record<string, unknown> = {};
      for (const entry of tree.entries) out[ctx.render(entry.key)] = renderTree(ctx, entry.value, failures);
      return out;
    }
  }
}

/**
 * Renders a resource manifest (inline tree, or a whole-document template parsed as YAML).
 * @throws TemplateExecError; ManifestError when the result lacks apiVersion/kind/metadata.name.
 */
export function renderManifest(ctx: ExecutionContext, manifest: ManifestSpec): KubeObject {
  let object: unknown;
  if (manifest.kind === 'tree') object = renderTree(ctx, manifest.tree);
  else {
    try {
      object = parseYaml(ctx.render(manifest.template));
    } catch (error) {
      if ((error as Error).name === 'TemplateExecError') throw error;
      throw new ManifestError(`rendered manifest is not valid YAML: ${(error as Error).message.split('\n')[0]}`);
    }
  }
  const o = object as Partial<KubeObject> | null;
  if (
    !o ||
    typeof o !== 'object' ||
    typeof o.apiVersion !== 'string' ||
    typeof o.kind !== 'string' ||
    typeof o.metadata?.name !== 'string' ||
    o.metadata.name === ''
  ) {
    throw new ManifestError('rendered manifest needs apiVersion, kind and metadata.name');
  }
  return o as KubeObject;
}
