/** DI tokens of the API's runtime collaborators (built by the engine's composition root). */
export const READ_SIDE = Symbol('ReadSide');
export const CLOCK = Symbol('Clock');
export const ID_GENERATOR = Symbol('IdGenerator');
export const API_OPTIONS = Symbol('ApiOptions');

/** Read-your-writes: resolves once the projections applied `position`. */
export interface ReadSide {
  waitFor(position: number): Promise<void>;
}

export interface Clock {
  now(): Date;
}

export interface IdGenerator {
  /** A new lowercase UUID v7 (contract §1.1). */
  next(): string;
}

export interface ApiOptions {
  /** Identities allowed to force-delete; empty = everyone (authentication disabled). */
  readonly admins: readonly string[];
}
