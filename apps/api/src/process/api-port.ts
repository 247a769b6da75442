/**
 * The API port from start to listening. A store or Redis down at start is waited for, not a reason to exit
 * (a supervisor would restart the process in a loop): the port answers meanwhile through the start-up gate,
 * opened at the first failed attempt, and the API takes the port over once everything it needs answers.
 */
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger } from 'pino';
import type { AppConfig } from '@decom/config';
import { openStartupGate, type StartupGate } from '../http-edge/startup-gate.js';
import { StartupState } from '@decom/health';
import type { Closers, StartWait } from '@decom/runtime';

export class ApiPort {
  readonly startup = new StartupState();
  private gate: StartupGate | undefined;

  constructor(
    private readonly config: AppConfig,
    private readonly logger: Logger,
    private readonly closers: Closers,
  ) {}

  /** How a dependency wait at start behaves: the gate opens before its first pause. */
  startWait(signal?: AbortSignal): StartWait {
    return {
      logger: this.logger,
      state: this.startup,
      ...(signal ? { signal } : {}),
      onWaiting: () => this.openGate(),
    };
  }

  /**
   * Opens the API port, or takes it over from the start-up gate (closed first; with PORT=0 the API listens
   * on the port the gate was given). Fastify's own listen (after Nest's init) rejects without Nest logging
   * the error a second time, so a port in use is reported once, by the caller.
   * @returns the API's base URL, e.g. `http://127.0.0.1:8000`.
   * @throws PortInUse when another process holds `config.port` on `config.host`.
   */
  async listen(app: NestFastifyApplication): Promise<string> {
    await app.init();
    const port = this.gate?.port ?? this.config.port;
    await this.gate?.close();
    try {
      await app.getHttpAdapter().getInstance().listen({ port, host: this.config.host });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new PortInUse(port, this.config.host);
      throw error;
    }
    this.startup.ready();
    const address = app.getHttpServer().address();
    return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : this.config.port}`;
  }

  /** The start-up gate on the API port, once. @throws PortInUse when another process holds it. */
  private async openGate(): Promise<void> {
    if (this.gate) return;
    try {
      this.gate = await openStartupGate(this.startup, this.config.port, this.config.host);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new PortInUse(this.config.port, this.config.host);
      throw error;
    }
    const gate = this.gate;
    this.closers.add(() => gate.close());
    this.logger.info(
      `API port ${gate.port}: /healthz answers 200, /readyz and every other route 503 (Retry-After) until the dependencies answer`,
    );
  }
}

/** The API port is taken by another process. */
export class PortInUse extends Error {
  override readonly name = 'PortInUse';
  constructor(
    readonly port: number,
    readonly host: string,
  ) {
    super(`port ${port} on ${host} is already in use: stop the other process or set PORT to a free port`);
  }
}
