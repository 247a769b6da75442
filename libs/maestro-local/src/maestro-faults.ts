/** A failure to inject: matching requests get `status` with a Maestro error body. */
export interface MaestroFault {
  readonly method?: string;
  /** A RegExp tested against the path, or a substring the path must contain. */
  readonly path?: RegExp | string;
  readonly status: number;
  readonly reason?: string;
  /** How many matching requests to fail; absent = until cleared. */
  readonly times?: number;
}

/** Keeps injected faults; `take` returns (and counts) the first one matching a request. */
export class MaestroFaults {
  private faults: { fault: MaestroFault; hits: number }[] = [];

  add(fault: MaestroFault): void {
    this.faults.push({ fault, hits: 0 });
  }

  clear(): void {
    this.faults = [];
  }

  take(method: string, path: string): MaestroFault | undefined {
    const entry = this.faults.find(({ fault }) => {
      if (fault.method !== undefined && fault.method.toUpperCase() !== method.toUpperCase()) return false;
      if (fault.path === undefined) return true;
      return typeof fault.path === 'string' ? path.includes(fault.path) : fault.path.test(path);
    });
    if (!entry) return undefined;
    entry.hits += 1;
    if (entry.fault.times !== undefined && entry.hits >= entry.fault.times) this.faults = this.faults.filter((f) => f !== entry);
    return entry.fault;
  }
}
