import { readFileSync } from 'node:fs';
import { isMap, isScalar } from 'yaml';
import type { Node, Scalar, YAMLMap } from 'yaml';
import { readWhen } from './api-call.section.js';
import type { LoadContext } from './load-context.js';
import { readTemplateTree } from './template-tree.section.js';
import { ADOPTION_POLICIES, DELETE_POLICIES } from './task-config.types.js';
import type {
  DiscoverySpec,
  ManifestSpec,
  NestedDiscoverySpec,
  PropagationPolicy,
  ResourceSpec,
  TemplateText,
  TransportSpec,
} from './task-config.types.js';
import { itemMap, joinPath, MapReader } from './yaml-reader.js';

const POLICIES: readonly PropagationPolicy[] = ['Background', 'Foreground', 'Orphan'];

/** Reads a file named by `ref`/`build_ref` (`LoadContext.refPath`): its path and text, or undefined with an issue. */
export function readRefFile(
  ctx: LoadContext,
  node: Node | undefined,
  path: string,
  ref: string,
): { file: string; text: string } | undefined {
  const file = ctx.refPath(ref, node, path);
  try {
    return { file, text: readFileSync(file, 'utf8') };
  } catch (error) {
    ctx.source.report(node, path, `cannot read ${JSON.stringify(ref)}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    return undefined;
  }
}

function readManifest(ctx: LoadContext, map: MapReader): ManifestSpec | undefined {
  const node = map.valueNode('manifest');
  const path = `${map.path}.manifest`;
  if (node === undefined) {
    ctx.source.report(map.position, path, 'is required');
    return undefined;
  }
  if (isScalar(node) && typeof (node as Scalar).value === 'string') {
    // A block string is a whole-document Go template, rendered and then parsed as YAML.
    const template = ctx.templateAt(node, (node as Scalar<string>).value, path);
    return template && { kind: 'document', template };
  }
  if (isMap(node) && (node as YAMLMap).items.length === 1 && new MapReader(ctx.source, node as YAMLMap, path).has('ref')) {
    const refMap = new MapReader(ctx.source, node as YAMLMap, path);
    const ref = refMap.string('ref', { required: true });
    refMap.finish();
    if (ref === undefined) return undefined;
    const read = readRefFile(ctx, refMap.valueNode('ref'), `${path}.ref`, ref);
    if (read === undefined) return undefined;
    const template = ctx.templateInFile(read.file, read.text, `${path}.ref`);
    return template && { kind: 'document', template };
  }
  if (!isMap(node)) {
    ctx.source.report(node, path, 'must be a mapping, a block string or {ref: <file>}');
    return undefined;
  }
  // Valid for HyperFleet, which checks only after rendering; Kubernetes refuses an object without these, so
  // the author hears it at load (a warning) rather than at the first apply.
  const keys = new MapReader(ctx.source, node as YAMLMap, path);
  const missing = ['apiVersion', 'kind'].filter((key) => !keys.has(key));
  if (missing.length > 0) ctx.source.warn(node, path, `has no ${missing.join(' or ')}: Kubernetes refuses such an object (400)`);
  const tree = readTemplateTree(ctx, node, path, false);
  return tree && { kind: 'tree', tree };
}

/** `map.discovery`: `namespace?` and exactly one of `by_name` / `by_selectors.label_selector` (all templated). */
function readDiscovery(ctx: LoadContext, map: MapReader): DiscoverySpec | undefined {
  const discovery = map.map('discovery', { required: true });
  if (!discovery) return undefined;
  const namespace = ctx.template(discovery, 'namespace');
  const hasName = discovery.has('by_name');
  const hasSelectors = discovery.has('by_selectors');
  if (hasName === hasSelectors) {
    ctx.source.report(discovery.position, discovery.path, 'must have exactly one of by_name, by_selectors');
  }
  const byName = hasName ? ctx.template(discovery, 'by_name', { required: true }) : undefined;
  let bySelectors: { key: TemplateText; value: TemplateText }[] | undefined;
  if (hasSelectors) {
    const selectors = discovery.map('by_selectors', { required: true });
    const labels = selectors?.map('label_selector', { required: true });
    if (labels) {
      bySelectors = [];
      for (const pair of (labels.node as YAMLMap<Node, Node>).items) {
        const keyText = isScalar(pair.key) ? String((pair.key as Scalar).value) : '?';
        const path = joinPath(labels.path, keyText);
        const key = ctx.scalarTemplate(pair.key as Node, path);
        const value = pair.value ? ctx.scalarTemplate(pair.value, path) : undefined;
        if (!pair.value) ctx.source.report(pair.key as Node, path, 'label value is required');
        if (key && value) bySelectors.push({ key, value });
      }
      if ((labels.node?.items.length ?? 0) === 0) ctx.source.report(labels.position, labels.path, 'needs at least one label');
      labels.keys().forEach((k) => labels.valueNode(k));
    }
    selectors?.finish();
  }
  discovery.finish();
  return {
    ...(namespace && { namespace }),
    ...(byName && { byName }),
    ...(bySelectors && { bySelectors }),
  };
}

function readLifecycle(ctx: LoadContext, map: MapReader): ResourceSpec['lifecycle'] | undefined {
  const lifecycle = map.map('lifecycle');
  if (!lifecycle) return undefined;
  const createMap = lifecycle.map('create');
  const adoptionPolicy = createMap?.oneOf('adoptionPolicy', ADOPTION_POLICIES);
  // HyperFleet requires create.when; Decom lets a create block carry only an adoption policy.
  const createWhen = createMap && readWhen(ctx, createMap, 'when', { required: !createMap.has('adoptionPolicy') });
  createMap?.finish();
  const deleteMap = lifecycle.map('delete');
  const propagationPolicy = deleteMap?.oneOf('propagationPolicy', POLICIES) ?? 'Background';
  const policy = deleteMap?.oneOf('policy', DELETE_POLICIES) ?? 'Delete';
  const deleteWhen = deleteMap && readWhen(ctx, deleteMap, 'when', { required: true });
  deleteMap?.finish();
  lifecycle.finish();
  const create =
    createWhen || adoptionPolicy ? { ...(createWhen && { when: createWhen }), adoptionPolicy: adoptionPolicy ?? 'Adopt' } : undefined;
  return {
    ...(create && { create }),
    ...(deleteWhen && { delete: { propagationPolicy, policy, when: deleteWhen } }),
  };
}

/** `transport: {client: kubernetes | maestro, maestro: {target_cluster}}`; absent = kubernetes. */
function readTransport(ctx: LoadContext, map: MapReader): TransportSpec | undefined {
  const transport = map.map('transport');
  if (!transport) return { client: 'kubernetes' };
  const client = transport.oneOf('client', ['kubernetes', 'maestro'] as const, { required: true });
  let result: TransportSpec | undefined = client === 'kubernetes' ? { client } : undefined;
  if (client === 'maestro') {
    const maestro = transport.map('maestro', { required: true });
    const targetCluster = maestro && ctx.template(maestro, 'target_cluster', { required: true });
    maestro?.finish();
    if (targetCluster) result = { client, targetCluster };
  } else if (transport.has('maestro')) {
    ctx.source.report(transport.valueNode('maestro'), `${transport.path}.maestro`, 'is only used with client: maestro');
  }
  transport.finish();
  return result;
}

/** `nested_discoveries: [{name, discovery}]` (Maestro): manifests inside the ManifestWork, promoted to `resources`. */
function readNestedDiscoveries(ctx: LoadContext, map: MapReader, transport: TransportSpec | undefined): NestedDiscoverySpec[] {
  if (!map.has('nested_discoveries')) return [];
  if (transport && transport.client !== 'maestro') {
    ctx.source.report(
      map.valueNode('nested_discoveries'),
      `${map.path}.nested_discoveries`,
      'needs transport.client: maestro (they look inside a ManifestWork)',
    );
  }
  const result: NestedDiscoverySpec[] = [];
  for (const item of map.list('nested_discoveries')) {
    const nested = itemMap(ctx.source, item);
    if (!nested) continue;
    const name = nested.string('name', { required: true });
    // Promoted next to the resources, so a nested name must not clash with any resource name.
    if (name !== undefined) ctx.declare('resource', name, nested.valueNode('name'), `${nested.path}.name`);
    const discovery = readDiscovery(ctx, nested);
    nested.finish();
    if (name !== undefined && discovery) result.push({ name, where: nested.path, discovery });
  }
  return result;
}

/**
 * `resources[]`: `{name, transport?, manifest, discovery, nested_discoveries?, recreate_on_change?, lifecycle?}`.
 * @see HyperFleet: hyperfleet-adapter internal/configloader/types.go "resources[]", seeds/000 "lifecycle".
 */
export function readResources(ctx: LoadContext, root: MapReader): ResourceSpec[] {
  const result: ResourceSpec[] = [];
  for (const item of root.list('resources')) {
    const map = itemMap(ctx.source, item);
    if (!map) continue;
    const name = map.string('name', { required: true });
    if (name !== undefined) ctx.declare('resource', name, map.valueNode('name'), `${map.path}.name`);
    const transport = readTransport(ctx, map);
    const manifest = readManifest(ctx, map);
    const discovery = readDiscovery(ctx, map);
    const recreateOnChange = map.boolean('recreate_on_change') ?? false;
    const lifecycle = readLifecycle(ctx, map);
    const nestedDiscoveries = readNestedDiscoveries(ctx, map, transport);
    map.finish();
    if (name === undefined || !transport || !manifest || !discovery) continue;
    result.push({
      name,
      where: map.path,
      transport,
      manifest,
      discovery,
      nestedDiscoveries,
      recreateOnChange,
      ...(lifecycle && { lifecycle }),
    });
  }
  return result;
}
