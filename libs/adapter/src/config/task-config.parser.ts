import { dirname } from 'node:path';
import { readFile } from 'node:fs/promises';
import { LoadContext } from './load-context.js';
import { checkCelReferences } from './cel-references.check.js';
import { checkNames } from './names.check.js';
import { readParams } from './params.section.js';
import { readPost } from './post.section.js';
import { readPreconditions } from './preconditions.section.js';
import { readResources } from './resources.section.js';
import { TaskConfigError } from './task-config-error.js';
import { checkTemplateReferences } from './template-references.check.js';
import type { TaskConfig } from './task-config.types.js';
import { YamlSource } from './yaml-reader.js';

/**
 * Parses and validates a flat AdapterTaskConfig: strict keys, required fields, names, enums,
 * templates and CEL compiled with positions mapped into the file, template variables defined.
 * `ref`/`build_ref` files are read relative to `dirname(fileName)`.
 * @throws TaskConfigError listing every issue as `file:line:column path: message`.
 * @see HyperFleet: hyperfleet-adapter internal/configloader/types.go, seeds/000 "Example Task Config with Deletion".
 */
export function parseTaskConfig(yamlText: string, fileName: string, options: TaskConfigOptions = {}): TaskConfig {
  const source = new YamlSource(fileName, yamlText);
  source.throwIfIssues();
  if (source.document.contents === null || source.document.contents === undefined) {
    // An empty file (or only comments) would otherwise pass as a config that does nothing.
    throw new TaskConfigError(
      [{ file: fileName, line: 1, column: 1, path: '', message: 'the file is empty: no task config to validate' }],
      { unusable: true },
    );
  }
  const ctx = new LoadContext(source, dirname(fileName));
  const root = source.rootMap();
  if (!root) return source.throwIfIssues() as never;
  if (root.has('apiVersion') || root.has('spec')) {
    // Pre-HYPERFLEET-551 configs wrap everything in `spec:`; say so instead of N unknown fields.
    source.report(root.position, '', 'the apiVersion/kind/spec wrapper is not supported: use the flat task config format');
    source.throwIfIssues();
  }
  const params = readParams(ctx, root);
  const preconditions = readPreconditions(ctx, root);
  const resources = readResources(ctx, root);
  const post = readPost(ctx, root);
  root.finish();
  checkNames(ctx);
  checkTemplateReferences(ctx);
  checkCelReferences(ctx, options.strict);
  source.throwIfIssues();
  return { file: fileName, params, preconditions, resources, post, ...(source.warnings.length > 0 && { warnings: [...source.warnings] }) };
}

export interface TaskConfigOptions {
  /** `adapter validate --strict`: unknown CEL variables are errors instead of warnings. */
  readonly strict?: boolean;
}

/**
 * Reads and parses a task config file.
 * @throws TaskConfigError (also for an unreadable file, positioned at 1:1).
 */
export async function loadTaskConfigFile(path: string, options: TaskConfigOptions = {}): Promise<TaskConfig> {
  return parseTaskConfig(await readConfigText(path), path, options);
}

/** Reads a config file, turning I/O errors into a positioned `TaskConfigError`. */
export async function readConfigText(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new TaskConfigError(
      [
        {
          file: path,
          line: 1,
          column: 1,
          path: '',
          message: `cannot read file: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
        },
      ],
      { unusable: true },
    );
  }
}
