import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { configEvidenceOf } from './config-kind.js';

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
 *
 * A deployment config under another name is recognised by its content (`configKindOf`), as HyperFleet
 * knows one by `--config` rather than by name: in the flat layout it pairs with the task config named
 * like its `adapter.name` (when that one has no `<name>.adapter.yaml`), else it is an orphan; in a
 * folder without `adapter-config.yaml`, the folder's one YAML file that is a deployment config is used.
 */
export async function listAdapterFiles(dir: string): Promise<{ adapters: AdapterFiles[]; orphans: string[] }> {
  const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
  const files = entries.filter((e) => e.isFile()).map((e) => e.name);
  const adapters: AdapterFiles[] = [];
  const byContent: { file: string; adapterName?: string }[] = [];
  for (const file of files.filter((f) => /\.ya?ml$/.test(f) && !/\.adapter\.ya?ml$/.test(f))) {
    const evidence = await configEvidenceOf(join(dir, file));
    if (evidence.kind === 'deployment') {
      byContent.push({ file: join(dir, file), ...(evidence.adapterName !== undefined && { adapterName: evidence.adapterName }) });
      continue;
    }
    const name = file.replace(/\.ya?ml$/, '');
    const deployment = [`${name}.adapter.yaml`, `${name}.adapter.yml`].find((f) => files.includes(f));
    adapters.push({ name, taskFile: join(dir, file), ...(deployment && { deploymentFile: join(dir, deployment) }) });
  }
  const orphans: string[] = [];
  for (const found of byContent) {
    const at = adapters.findIndex((a) => a.name === found.adapterName && a.deploymentFile === undefined);
    if (at < 0) orphans.push(found.file);
    else adapters[at] = { ...adapters[at]!, deploymentFile: found.file };
  }
  for (const folder of entries.filter((e) => e.isDirectory())) {
    const base = join(dir, folder.name);
    const task = HYPERFLEET_TASK_FILES.map((f) => join(base, f)).find((f) => existsSync(f));
    if (!task) continue;
    const deployment =
      HYPERFLEET_DEPLOYMENT_FILES.map((f) => join(base, f)).find((f) => existsSync(f)) ?? (await deploymentByContent(base, task));
    adapters.push({ name: folder.name, taskFile: task, ...(deployment && { deploymentFile: deployment }) });
  }
  orphans.push(
    ...files
      .filter(
        (f) =>
          /\.adapter\.ya?ml$/.test(f) &&
          !files.includes(f.replace(/\.adapter\.ya?ml$/, '.yaml')) &&
          !files.includes(f.replace(/\.adapter\.ya?ml$/, '.yml')),
      )
      .map((f) => join(dir, f)),
  );
  return { adapters, orphans };
}

/** The one YAML file of a HyperFleet adapter folder (other than its task config) that is a deployment config by content. */
async function deploymentByContent(folder: string, taskFile: string): Promise<string | undefined> {
  const candidates = (await readdir(folder))
    .filter((f) => /\.ya?ml$/.test(f))
    .map((f) => join(folder, f))
    .filter((f) => f !== taskFile)
    .sort();
  const found: string[] = [];
  for (const file of candidates) if ((await configEvidenceOf(file)).kind === 'deployment') found.push(file);
  return found.length === 1 ? found[0] : undefined;
}
