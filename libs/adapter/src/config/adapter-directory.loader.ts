import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { loadAdapterConfigFile } from './adapter-config.parser.js';
import type { AdapterDeploymentConfig } from './adapter-config.types.js';
import { type ConfigIssue, TaskConfigError } from './task-config-error.js';
import { loadTaskConfigFile } from './task-config.parser.js';
import type { TaskConfig } from './task-config.types.js';

/** One adapter found in a config directory. */
export interface LoadedAdapter {
  /** `adapter.name` of the deployment config, else the task file's base name. */
  readonly name: string;
  readonly version?: string;
  readonly task: TaskConfig;
  readonly deployment?: AdapterDeploymentConfig;
}

const DEPLOYMENT_SUFFIX = '.adapter.yaml';

/**
 * Loads every adapter of a directory such as `config/adapters/`: each `<name>.yaml` is a task
 * config, and an optional sibling `<name>.adapter.yaml` is its deployment config (adapter name,
 * version, API client settings). Without one, the adapter is named after the file.
 * `env` carries the `HYPERFLEET_*` overrides of the deployment configs.
 * A deployment config whose `adapter.name` differs from `<name>` is an error (one name per adapter).
 * @throws TaskConfigError with the issues of every file (all files are checked).
 */
export async function loadAdapterDirectory(dir: string, env: Readonly<Record<string, string | undefined>> = {}): Promise<LoadedAdapter[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.yaml') || f.endsWith('.yml')).sort();
  const issues: ConfigIssue[] = [];
  const adapters: LoadedAdapter[] = [];
  const collect = async <T>(load: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await load();
    } catch (error) {
      if (error instanceof TaskConfigError) issues.push(...error.issues);
      else throw error;
      return undefined;
    }
  };
  for (const file of files.filter((f) => !f.endsWith(DEPLOYMENT_SUFFIX))) {
    const base = file.replace(/\.ya?ml$/, '');
    const deploymentFile = `${base}${DEPLOYMENT_SUFFIX}`;
    const task = await collect(() => loadTaskConfigFile(join(dir, file)));
    const deployment = files.includes(deploymentFile)
      ? await collect(() => loadAdapterConfigFile(join(dir, deploymentFile), env))
      : undefined;
    if (deployment && deployment.adapter.name !== base) {
      issues.push({
        file: join(dir, deploymentFile),
        line: 1,
        column: 1,
        path: 'adapter.name',
        message: `is ${JSON.stringify(deployment.adapter.name)} but the task config is ${file}: name them alike`,
      });
    }
    if (!task) continue;
    adapters.push({
      name: deployment?.adapter.name ?? base,
      ...(deployment?.adapter.version && { version: deployment.adapter.version }),
      task,
      ...(deployment && { deployment }),
    });
  }
  for (const file of files.filter((f) => f.endsWith(DEPLOYMENT_SUFFIX))) {
    if (!files.includes(file.replace(DEPLOYMENT_SUFFIX, '.yaml'))) {
      issues.push({ file: join(dir, file), line: 1, column: 1, path: '', message: 'deployment config without a task config beside it' });
    }
  }
  if (issues.length > 0) throw new TaskConfigError(issues);
  return adapters;
}
