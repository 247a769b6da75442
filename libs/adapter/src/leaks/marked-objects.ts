import type { ResourceSpec, TaskConfig, TemplateTree } from '../config/task-config.types.js';
import { OWNER_ANNOTATION, RELEASED_FROM_ANNOTATION, ownerLabels } from '../executor/ownership.js';
import type { KubeObject, ResourceTransport } from '../transport/resource-transport.port.js';

/** A kind an adapter manages on Kubernetes. */
export interface ManagedKind {
  readonly apiVersion: string;
  readonly kind: string;
}

/** A parsed ownership (or release) marker: `<kind>/<id>/<adapter>`. */
export interface OwnerMark {
  readonly kind: string;
  readonly id: string;
  readonly adapter: string;
}

/** An object carrying a Decom marker, as the leak inventory names it. */
export interface MarkedObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace?: string;
  readonly name: string;
  readonly uid?: string;
  /** `decom.io/owner`, when present and well-formed. */
  readonly owner?: OwnerMark;
  /** `decom.io/released-from`, when present and well-formed (an orphaned object). */
  readonly releasedFrom?: OwnerMark;
  /** `metadata.deletionTimestamp` is set: the object is already going away. */
  readonly terminating?: boolean;
}

/** `Cluster/3f2a…/validation` → its parts; undefined for anything else. */
export function parseMark(value: string | undefined): OwnerMark | undefined {
  const match = value ? /^([^/]+)\/([^/]+)\/([^/]+)$/.exec(value) : null;
  return match ? { kind: match[1]!, id: match[2]!, adapter: match[3]! } : undefined;
}

function literal(tree: TemplateTree, key: string): string | undefined {
  if (tree.kind !== 'map') return undefined;
  const entry = tree.entries.find((e) => e.key.source === key);
  if (entry?.value.kind !== 'text') return undefined;
  const text = entry.value.text.source.trim();
  return text !== '' && !text.includes('{{') ? text : undefined;
}

/** The kind a Kubernetes resource's manifest creates, when its `apiVersion` and `kind` are literal. */
export function managedKindOf(spec: ResourceSpec): ManagedKind | undefined {
  if (spec.transport.client !== 'kubernetes') return undefined;
  if (spec.manifest.kind === 'tree') {
    const apiVersion = literal(spec.manifest.tree, 'apiVersion');
    const kind = literal(spec.manifest.tree, 'kind');
    return apiVersion && kind ? { apiVersion, kind } : undefined;
  }
  const source = spec.manifest.template.source;
  const apiVersion = /^apiVersion:\s*['"]?([^\s'"{]+)['"]?\s*$/m.exec(source)?.[1];
  const kind = /^kind:\s*['"]?([^\s'"{]+)['"]?\s*$/m.exec(source)?.[1];
  return apiVersion && kind ? { apiVersion, kind } : undefined;
}

/**
 * The Kubernetes kinds the task configs create (manifests whose `apiVersion` and `kind` are literal;
 * Maestro resources and templated kinds are left out), each once, in config order.
 */
export function managedKinds(tasks: readonly TaskConfig[]): ManagedKind[] {
  const out: ManagedKind[] = [];
  for (const spec of tasks.flatMap((t) => t.resources)) {
    const found = managedKindOf(spec);
    if (found && !out.some((k) => k.apiVersion === found.apiVersion && k.kind === found.kind)) out.push(found);
  }
  return out;
}

function toMarked(object: KubeObject, fallback: ManagedKind): MarkedObject | undefined {
  const annotations = object.metadata.annotations ?? {};
  const owner = parseMark(annotations[OWNER_ANNOTATION]);
  const releasedFrom = parseMark(annotations[RELEASED_FROM_ANNOTATION]);
  if (!owner && !releasedFrom) return undefined;
  return {
    apiVersion: object.apiVersion ?? fallback.apiVersion,
    kind: object.kind ?? fallback.kind,
    ...(object.metadata.namespace && { namespace: object.metadata.namespace }),
    name: object.metadata.name,
    ...(object.metadata.uid && { uid: object.metadata.uid }),
    ...(owner && { owner }),
    ...(releasedFrom && { releasedFrom }),
    ...(object.metadata.deletionTimestamp && { terminating: true }),
  };
}

/**
 * Every object of `kinds`, in every namespace, carrying Decom's ownership or release marker. One list
 * call per kind; a kind the server does not serve is skipped (nothing of it can exist).
 * @throws TransportError for any other failure (a failed scan is never "no leaks").
 */
export async function listMarked(transport: ResourceTransport, kinds: readonly ManagedKind[]): Promise<MarkedObject[]> {
  if (!transport.discoverAll) return [];
  const out: MarkedObject[] = [];
  for (const kind of kinds) {
    let objects: KubeObject[];
    try {
      objects = await transport.discoverAll({ apiVersion: kind.apiVersion, kind: kind.kind, labelSelector: {} });
    } catch (error) {
      if ((error as { reason?: string }).reason === 'UnknownKind') continue;
      throw error;
    }
    for (const object of objects) {
      const marked = toMarked(object, kind);
      if (marked) out.push(marked);
    }
  }
  return out;
}

/** Objects still marked by `<kind>/<id>/<adapter>`: owned, or released from it (orphaned). */
export function markedFor(objects: readonly MarkedObject[], mark: OwnerMark): MarkedObject[] {
  const same = (m?: OwnerMark) => m !== undefined && m.kind === mark.kind && m.id === mark.id && m.adapter === mark.adapter;
  return objects.filter((o) => same(o.owner) || same(o.releasedFrom));
}

/**
 * Objects of `kinds` still owned by `mark` (its `decom.io/owner` annotation; an object released by an orphaning
 * no longer is), terminating ones included: what verify before hard delete looks for. Found through the marker's
 * labels (`decom.io/owner-id`, `decom.io/managed-by`), one label-selected list call per kind in every namespace;
 * the annotation decides. A kind the server does not serve is skipped (nothing of it can exist).
 * @throws TransportError for any other failure, and an Error when the transport cannot list (never "nothing left").
 */
export async function listOwned(transport: ResourceTransport, kinds: readonly ManagedKind[], mark: OwnerMark): Promise<MarkedObject[]> {
  if (!transport.discoverAll) throw new Error('this Kubernetes transport cannot list objects by label');
  const labelSelector = ownerLabels(`${mark.kind}/${mark.id}/${mark.adapter}`);
  const out: MarkedObject[] = [];
  for (const kind of kinds) {
    let objects: KubeObject[];
    try {
      objects = await transport.discoverAll({ apiVersion: kind.apiVersion, kind: kind.kind, labelSelector });
    } catch (error) {
      if ((error as { reason?: string }).reason === 'UnknownKind') continue;
      throw error;
    }
    for (const object of objects) {
      const marked = toMarked(object, kind);
      const owner = marked?.owner;
      if (marked && owner && owner.kind === mark.kind && owner.id === mark.id && owner.adapter === mark.adapter) out.push(marked);
    }
  }
  return out;
}
