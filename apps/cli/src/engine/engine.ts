/**
 * The engine a `decom start`, `decom api` or `decom demo` runs, composed from the apps' entry points: the API
 * process of `@decom/api` (`startApiProcess`) and, for role `all`, the adapters hosted in it by `@decom/worker`
 * (`adapterHost`). The apps do not know each other; this is where they meet.
 */
import { startApiProcess, type ApiProcess, type ApiProcessOptions } from '@decom/api';
import { adapterHost, type AdapterHostingOptions } from '@decom/worker';
import { buildInfo } from '../build-info.js';

export { PortInUse } from '@decom/api';

export type EngineRole = 'all' | 'api';

/** How to start an engine: the API process's options, and the hosted adapters' own (`AdapterHostingOptions`). */
export interface EngineOptions extends Omit<ApiProcessOptions, 'build' | 'adapterHost'>, AdapterHostingOptions {
  /** `all` (default): API and adapter runs; `api`: no adapter runs (workers elsewhere). */
  readonly role?: EngineRole;
}

export type Engine = ApiProcess;

/**
 * Starts the API process of `options.role`, with this build's version and, for `all`, the adapters hosted in it.
 * @throws as `startApiProcess`: ConfigError for a file at fault; PortInUse; StartAborted when `options.abort` fires during a wait.
 */
export function startEngine(options: EngineOptions): Promise<Engine> {
  const { role = 'all', ...rest } = options;
  return startApiProcess({ ...rest, build: buildInfo(), ...(role === 'all' ? { adapterHost: adapterHost(options) } : {}) });
}
