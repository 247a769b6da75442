/**
 * A pino logger for an engine under test whose JSON lines are kept, parsed, in `lines` (newest last), so a
 * test can assert what operators read in the log.
 */
import { Writable } from 'node:stream';
import pino, { type Logger } from 'pino';

export function loggerInto(lines: unknown[], level: pino.Level = 'info'): Logger {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return pino({ level }, sink);
}
