import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { CloudEvent } from 'cloudevents';
import { parse as parseYaml } from 'yaml';
import type { AdapterEvent } from '../executor/adapter-executor.js';
import type { KubeObject } from '../transport/resource-transport.port.js';

/** An input file of a dry run or plan is missing or malformed; the message starts with the file name. */
export class SimulationInputError extends Error {
  override readonly name = 'SimulationInputError';
}

async function readJson(file: string, what: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new SimulationInputError(`${file}: cannot read ${what}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new SimulationInputError(`${file}: ${what} is not JSON: ${(error as Error).message}`);
  }
}

/**
 * Reads HyperFleet's dry-run event file: a CloudEvent in JSON (validated; its `data` is the
 * event), or — a Decom convenience — the bare event data. The data needs a string `id`.
 * @throws SimulationInputError.
 */
export async function loadEventFile(file: string): Promise<AdapterEvent> {
  const json = (await readJson(file, 'event')) as Record<string, unknown> | null;
  if (!json || typeof json !== 'object' || Array.isArray(json)) throw new SimulationInputError(`${file}: event must be a JSON object`);
  let data: unknown = json;
  if ('specversion' in json) {
    try {
      data = new CloudEvent(json as ConstructorParameters<typeof CloudEvent>[0]).data;
    } catch (error) {
      throw new SimulationInputError(`${file}: invalid CloudEvent: ${(error as Error).message}`);
    }
    if (typeof data === 'string') data = JSON.parse(data);
  }
  if (!data || typeof data !== 'object' || typeof (data as { id?: unknown }).id !== 'string') {
    throw new SimulationInputError(`${file}: event data needs a string "id"`);
  }
  return data as AdapterEvent;
}

/** Reads a JSON file (API responses); `undefined` path → `undefined`. @throws SimulationInputError. */
export async function loadJsonFile(file: string | undefined, what: string): Promise<unknown> {
  return file === undefined ? undefined : readJson(file, what);
}

/**
 * Reads HyperFleet's dry-run discovery file: `{ "<rendered metadata.name>": {apiVersion, kind, ...} }`.
 * Each object is returned with `metadata.name` set to its key.
 * @throws SimulationInputError when an entry lacks apiVersion or kind.
 */
export async function loadDiscoveryFile(file: string | undefined): Promise<Record<string, KubeObject>> {
  if (file === undefined) return {};
  const json = (await readJson(file, 'discovery')) as Record<string, unknown> | null;
  if (!json || typeof json !== 'object' || Array.isArray(json))
    throw new SimulationInputError(`${file}: discovery must be a JSON object keyed by resource name`);
  const objects: Record<string, KubeObject> = {};
  for (const [name, value] of Object.entries(json)) {
    const object = value as Partial<KubeObject> | null;
    if (!object || typeof object !== 'object') throw new SimulationInputError(`${file}: discovery "${name}" must be an object`);
    for (const field of ['apiVersion', 'kind'] as const) {
      if (typeof object[field] !== 'string')
        throw new SimulationInputError(`${file}: discovery "${name}" is missing required field "${field}"`);
    }
    objects[name] = { ...(object as KubeObject), metadata: { ...(object.metadata ?? {}), name } };
  }
  return objects;
}

/** `<dir>/<name>.adapter.yaml` beside a task config `<dir>/<name>.yaml` (or `adapter-config.yaml` beside `adapter-task-config.yaml`), when it exists. */
export function siblingDeploymentConfig(taskConfigFile: string): string | undefined {
  const base = basename(taskConfigFile).replace(/\.ya?ml$/, '');
  const dir = dirname(taskConfigFile);
  // HyperFleet's layout: adapter-task-config.yaml beside adapter-config.yaml.
  const candidates =
    base === 'adapter-task-config' ? ['adapter-config.yaml', 'adapter-config.yml'] : [`${base}.adapter.yaml`, `${base}.adapter.yml`];
  return candidates.map((f) => join(dir, f)).find((f) => existsSync(f));
}

/** The deployment config as plain YAML data (the `config` variable and `config.` param sources). */
export async function rawYaml(file: string): Promise<Record<string, unknown>> {
  const parsed = parseYaml(await readFile(file, 'utf8')) as unknown;
  return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
}
