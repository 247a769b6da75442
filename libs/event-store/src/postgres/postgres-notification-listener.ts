import pg from 'pg';

/**
 * One LISTEN connection per store, shared by its subscriptions: calls every watcher on each NOTIFY on
 * `channel`. Connects when the first watcher arrives and hands the connection back (destroyed, so no
 * LISTEN leaks into the pool) when the last one leaves. On a lost connection it reconnects after
 * `retryAfterMs` and then wakes every watcher, since notifications sent meanwhile were lost; the
 * subscriptions' polling covers the gap.
 */
export class PostgresNotificationListener {
  private client: pg.PoolClient | undefined;
  private connecting: Promise<void> | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private readonly watchers = new Set<() => void>();

  constructor(
    private readonly pool: pg.Pool,
    private readonly channel: string,
    private readonly retryAfterMs: number,
  ) {}

  /** Adds a watcher; resolves (even if LISTEN failed: polling then covers) to a function that removes it. */
  async watch(onNotification: () => void): Promise<() => void> {
    this.watchers.add(onNotification);
    await this.connect();
    return () => {
      this.watchers.delete(onNotification);
      if (this.watchers.size === 0) this.disconnect();
    };
  }

  private connect(): Promise<void> {
    if (this.client || this.watchers.size === 0) return Promise.resolve();
    this.connecting ??= this.listen().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private async listen(): Promise<void> {
    let client: pg.PoolClient | undefined;
    try {
      client = await this.pool.connect();
      const connected = client;
      connected.on('notification', (message) => {
        if (message.channel === this.channel) this.notifyAll();
      });
      connected.on('error', () => this.drop(connected));
      await connected.query(`LISTEN ${pg.escapeIdentifier(this.channel)}`);
      if (this.watchers.size === 0) {
        connected.release(true);
        return;
      }
      this.client = connected;
    } catch {
      if (client && client !== this.client) client.release(true);
      this.scheduleRetry();
    }
  }

  private drop(client: pg.PoolClient): void {
    if (this.client !== client) return;
    this.client = undefined;
    client.release(true);
    this.scheduleRetry();
  }

  private scheduleRetry(): void {
    if (this.retryTimer || this.watchers.size === 0) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.connect().then(() => this.notifyAll());
    }, this.retryAfterMs);
  }

  private disconnect(): void {
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    const client = this.client;
    this.client = undefined;
    client?.release(true);
  }

  private notifyAll(): void {
    for (const watcher of [...this.watchers]) watcher();
  }
}
