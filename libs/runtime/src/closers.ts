import type { Logger } from 'pino';

/**
 * What a process opened, closed in reverse order of opening; a failure to close one is logged and the
 * rest still close (a stop never stops half-way).
 */
export class Closers {
  private readonly closers: (() => Promise<unknown>)[] = [];

  constructor(private readonly logger: Logger) {}

  add(close: () => Promise<unknown>): void {
    this.closers.push(close);
  }

  async close(): Promise<void> {
    for (const close of this.closers.splice(0).reverse()) {
      try {
        await close();
      } catch (error) {
        this.logger.warn({ err: error }, 'error while stopping');
      }
    }
  }
}
