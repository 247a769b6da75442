/**
 * Checks the files and folders the configuration names before anything starts, so a wrong path stops the
 * start with one line naming its variable (not a raw ENOENT after the API already opened its port).
 */
import { accessSync, constants, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConfigError, type AppConfig } from './app-config.js';

/** @throws ConfigError naming the variable, e.g. `KUBECONFIG: file not found: /nonexistent`. */
export function checkConfigPaths(
  config: Pick<AppConfig, 'kubeconfig' | 'adaptersDir' | 'entitiesFile' | 'dataDir' | 'eventStore'>,
  needs: { adapters: boolean } = { adapters: true },
): void {
  if (config.kubeconfig !== undefined) requireFile('KUBECONFIG', config.kubeconfig);
  requireFile('DECOM_ENTITIES_FILE', config.entitiesFile);
  if (needs.adapters) requireDirectory('DECOM_ADAPTERS_DIR', config.adaptersDir);
  if (config.eventStore === 'sqlite') requireWritableFolder('DECOM_DATA_DIR', config.dataDir);
}

function stat(variable: string, path: string) {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

function requireFile(variable: string, path: string): void {
  const info = stat(variable, path);
  if (!info) throw new ConfigError(variable, `file not found: ${path}`);
  if (!info.isFile()) throw new ConfigError(variable, `not a file: ${path}`);
  try {
    accessSync(path, constants.R_OK);
  } catch {
    throw new ConfigError(variable, `file is not readable: ${path}`);
  }
}

function requireDirectory(variable: string, path: string): void {
  const info = stat(variable, path);
  if (!info) throw new ConfigError(variable, `folder not found: ${path}`);
  if (!info.isDirectory()) throw new ConfigError(variable, `not a folder: ${path}`);
}

/** The folder may not exist yet (it is created), but its nearest existing ancestor must be a writable folder. */
function requireWritableFolder(variable: string, path: string): void {
  let current = path;
  for (;;) {
    const info = stat(variable, current);
    if (info) {
      if (!info.isDirectory()) throw new ConfigError(variable, `not a folder: ${current}`);
      if (current.startsWith('/proc') || current.startsWith('/sys')) throw new ConfigError(variable, `not a place for data: ${path}`);
      try {
        accessSync(current, constants.W_OK);
      } catch {
        throw new ConfigError(variable, `folder is not writable: ${current}`);
      }
      return;
    }
    const parent = dirname(current);
    if (parent === current) return;
    current = parent;
  }
}
