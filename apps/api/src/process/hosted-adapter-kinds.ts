/**
 * The adapters this installation hosts, each with the Kubernetes kinds its task config creates: what verify
 * before hard delete lists by ownership (docs/policies.md). Read from the adapters folder (the same files
 * `decom start` and `decom worker` run), so it is known before any adapter or Kubernetes connection starts.
 * An adapter creating no literal Kubernetes kind (Maestro only, templated kinds) is left out: nothing of it can
 * be listed here.
 */
import { access } from 'node:fs/promises';
import { listAdapterFiles, loadAdapterConfigFile, loadTaskConfigFile, managedKinds, type ManagedKind } from '@decom/adapter';

/**
 * Adapter name (the deployment config's `adapter.name`, else the file's) → its kinds. Empty when the folder does
 * not exist. @throws the load error of a task or deployment config that does not parse.
 */
export async function hostedAdapterKinds(
  dir: string,
  env: Readonly<Record<string, string | undefined>>,
  apiBaseUrl: string,
): Promise<Map<string, ManagedKind[]>> {
  const out = new Map<string, ManagedKind[]>();
  if (
    !(await access(dir).then(
      () => true,
      () => false,
    ))
  )
    return out;
  const { adapters } = await listAdapterFiles(dir);
  for (const files of adapters) {
    const kinds = managedKinds([await loadTaskConfigFile(files.taskFile)]);
    if (kinds.length === 0) continue;
    const name = files.deploymentFile
      ? ((await loadAdapterConfigFile(files.deploymentFile, env, { defaultBaseUrl: apiBaseUrl })).adapter.name ?? files.name)
      : files.name;
    out.set(name, kinds);
  }
  return out;
}
