/**
 * Nest's own log lines (its exception layer, start-up errors) written as JSON through the engine's pino
 * logger, so the log stays one JSON object per line: no ANSI-coloured `[Nest]` lines among them.
 */
import type { LoggerService } from '@nestjs/common';
import type { Logger } from 'pino';

export class NestPinoLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  /** Nest's `log` lines are its start-up chatter (mapped routes, modules): debug, not info. */
  log(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }
  error(message: unknown, ...rest: unknown[]): void {
    this.write('error', message, rest);
  }
  warn(message: unknown, ...rest: unknown[]): void {
    this.write('warn', message, rest);
  }
  debug(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }
  verbose(message: unknown, ...rest: unknown[]): void {
    this.write('trace', message, rest);
  }
  fatal(message: unknown, ...rest: unknown[]): void {
    this.write('fatal', message, rest);
  }

  /** Nest passes `(message, context)` or `(message, stack, context)`; the last string is the context. */
  private write(level: 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal', message: unknown, rest: unknown[]): void {
    const strings = rest.filter((r): r is string => typeof r === 'string');
    const context = strings.length > 0 ? strings[strings.length - 1] : undefined;
    const stack = strings.length > 1 ? strings[0] : undefined;
    const fields = { ...(context ? { context } : {}), ...(stack ? { stack } : {}) };
    if (message instanceof Error) this.logger[level]({ ...fields, err: message }, message.message);
    else this.logger[level](fields, typeof message === 'string' ? message : JSON.stringify(message));
  }
}
