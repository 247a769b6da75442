/**
 * Checks one manifest the way kube-apiserver checks a create with `fieldValidation=Strict`:
 * known kind, no unknown fields, types, required fields, the kind's semantic rules (after the
 * server's conversion and defaulting) and the object-metadata rules. The same code the local
 * API server runs on every write, usable without a server (for manifests Decom ships).
 */
import { builtInKinds } from './kinds.js';
import { applyDefaults, convertIncoming, validateKind } from './kind-rules.js';
import { checkStructure, hasSchema, pruneUnknownFields } from './object-schema.js';
import type { KubeObject } from './object-store.js';
import { validateObjectMeta } from './validation.js';

const KINDS = builtInKinds();

/**
 * The problems a real API server would refuse a create of `manifest` for, each as
 * `<field>: <message>` (kube-apiserver's wording); `[]` = it would be accepted.
 * A kind the local server does not model with a schema (custom resources) gives
 * `kind <apiVersion>/<kind> has no schema here`, so a caller notices what it did not check.
 */
export function manifestProblems(manifest: Record<string, unknown>): string[] {
  const apiVersion = String(manifest.apiVersion ?? '');
  const kind = String(manifest.kind ?? '');
  const def = KINDS.find((d) => d.apiVersion === apiVersion && d.kind === kind);
  if (!def || !hasSchema(apiVersion, kind)) return [`kind ${apiVersion}/${kind} has no schema here`];
  const object = structuredClone(manifest) as KubeObject;
  object.metadata = { ...(object.metadata ?? {}), uid: '00000000-0000-0000-0000-000000000000' } as KubeObject['metadata'];
  const problems = pruneUnknownFields(apiVersion, kind, object).map((field) => `${field}: unknown field`);
  const structure = checkStructure(apiVersion, kind, object);
  if (structure.decodeError !== undefined) return [...problems, structure.decodeError];
  convertIncoming(def, object);
  applyDefaults(def, object, true);
  const errors = [...structure.errors, ...validateKind(def, object), ...validateObjectMeta(def, object)];
  return [...problems, ...errors.map((e) => `${e.field}: ${e.message}`)];
}
