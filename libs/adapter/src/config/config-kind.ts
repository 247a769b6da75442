import { readFile } from 'node:fs/promises';
import { isMap, isScalar, parseDocument } from 'yaml';

/** Which of HyperFleet's two adapter configs a YAML file is. */
export type AdapterConfigKind = 'task' | 'deployment';

/** Top-level keys only a task config has (hyperfleet-adapter `internal/configloader/types.go`). */
const TASK_KEYS: ReadonlySet<string> = new Set(['params', 'preconditions', 'resources', 'post']);
/** Top-level keys only a deployment config has (hyperfleet-adapter `internal/configloader/types.go`). */
const DEPLOYMENT_KEYS: ReadonlySet<string> = new Set(['adapter', 'clients', 'debug_config', 'log']);

/** What the content of a config says about it: its kind, and `adapter.name` of a deployment config. */
export interface ConfigKindEvidence {
  readonly kind: AdapterConfigKind | undefined;
  readonly adapterName?: string;
}

/**
 * Recognises a config by its content, as HyperFleet knows a deployment config by being passed with
 * `--config` whatever its file name: `kind: AdapterConfig` (the older wrapper) or a top-level key only a
 * deployment config has (`adapter`, `clients`, `debug_config`, `log`) and none only a task config has
 * (`params`, `preconditions`, `resources`, `post`) is a deployment config; `kind: AdapterTaskConfig` or a
 * task key is a task config. Anything else (not YAML, empty, a Kubernetes manifest) is `undefined`: the
 * caller decides by name, and the parser then reports what is wrong. Never throws.
 */
export function configKindOf(yamlText: string): ConfigKindEvidence {
  let root: unknown;
  try {
    const document = parseDocument(yamlText, { prettyErrors: false });
    if (document.errors.length > 0) return { kind: undefined };
    root = document.contents;
  } catch {
    return { kind: undefined };
  }
  if (!isMap(root)) return { kind: undefined };
  const keys = root.items.map((pair) => (isScalar(pair.key) ? String(pair.key.value) : '')).filter((k) => k !== '');
  const kind = root.get('kind');
  const adapter = root.get('adapter');
  const name = isMap(adapter) ? adapter.get('name') : undefined;
  const adapterName = typeof name === 'string' ? name : undefined;
  if (kind === 'AdapterConfig') return { kind: 'deployment', ...(adapterName !== undefined && { adapterName }) };
  if (kind === 'AdapterTaskConfig' || keys.some((k) => TASK_KEYS.has(k))) return { kind: 'task' };
  if (keys.some((k) => DEPLOYMENT_KEYS.has(k))) return { kind: 'deployment', ...(adapterName !== undefined && { adapterName }) };
  return { kind: undefined };
}

/** A deployment config by Decom's or HyperFleet's file name (`<name>.adapter.yaml`, `adapter-config.yaml`). */
export function isDeploymentConfigName(file: string): boolean {
  return /\.adapter\.ya?ml$/.test(file) || /(^|[\\/])adapter-config\.ya?ml$/.test(file);
}

/**
 * Whether `file` is a deployment config: by name, else by content (`configKindOf`). A file that cannot be
 * read is not one (the task parser then reports it as unreadable).
 */
export async function isDeploymentConfigFile(file: string): Promise<boolean> {
  if (isDeploymentConfigName(file)) return true;
  return (await configEvidenceOf(file)).kind === 'deployment';
}

/** `configKindOf` of a file's content; `{ kind: undefined }` when it cannot be read. */
export async function configEvidenceOf(file: string): Promise<ConfigKindEvidence> {
  try {
    return configKindOf(await readFile(file, 'utf8'));
  } catch {
    return { kind: undefined };
  }
}
