import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** One adapter's files in an adapters directory. */
export interface AdapterFiles {
  /** `<name>` of `<name>.yaml`, or the folder name of HyperFleet's layout. */
  readonly name: string;
  readonly taskFile: string;
  readonly deploymentFile?: string;
}

/** HyperFleet's deployment layout: one folder per adapter holding these files (plus what they reference). */
export const HYPERFLEET_TASK_FILES = ['adapter-task-config.yaml', 'adapter-task-config.yml'] as const;
export const HYPERFLEET_DEPLOYMENT_FILES = ['adapter-config.yaml', 'adapter-config.yml'] as const;

/**
 * The adapters of a directory, by name: each `<name>.yaml` task config with an optional
 * `<name>.adapter.yaml` deployment config beside it (Decom's flat layout), and each sub-folder holding
 * `adapter-task-config.yaml` with an optional `adapter-config.yaml` (HyperFleet's layout; other files of
 * the folder are what the configs reference). Sub-folders without a task config are ignored (they may
 * hold examples or referenced files). Deployment configs without a task config are returned as `orphans`.
 */
export async function listAdapterFiles(dir: string): Promise<{ adapters: AdapterFiles[]; orphans: string[] }> {
  const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
  const files = entries.filter((e) => e.isFile()).map((e) => e.name);
  const adapters: AdapterFiles[] = [];
  for (const file of files.filter((f) => /\.ya?ml$/.test(f) && !/\.adapter\.ya?ml$/.test(f))) {
    const name = file.replace(/\.ya?ml$/, '');
    const deployment = [`${name}.adapter.yaml`, `${name}.adapter.yml`].find((f) => files.includes(f));
    adapters.push({ name, taskFile: join(dir, file), ...(deployment && { deploymentFile: join(dir, deployment) }) });
  }
  for (const folder of entries.filter((e) => e.isDirectory())) {
    const base = join(dir, folder.name);
    const task = HYPERFLEET_TASK_FILES.map((f) => join(base, f)).find((f) => existsSync(f));
    if (!task) continue;
    const deployment = HYPERFLEET_DEPLOYMENT_FILES.map((f) => join(base, f)).find((f) => existsSync(f));
    adapters.push({ name: folder.name, taskFile: task, ...(deployment && { deploymentFile: deployment }) });
  }
  const orphans = files
    .filter((f) => /\.adapter\.ya?ml$/.test(f) && !files.includes(f.replace(/\.adapter\.ya?ml$/, '.yaml')) && !files.includes(f.replace(/\.adapter\.ya?ml$/, '.yml')))
    .map((f) => join(dir, f));
  return { adapters, orphans };
}
