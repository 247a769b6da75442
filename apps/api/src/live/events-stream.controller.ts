/**
 * `GET /api/decom/v1/events/stream`: the event log as Server-Sent Events (`text/event-stream`), one
 * `event: <type>` message per recorded event with `id: <$all position>` and a JSON `LiveEvent` as data.
 * A client that reconnects with `Last-Event-ID` (or `?after=<position>`) first gets what it missed (up to
 * 1000 events). A comment line every 15 s keeps proxies from closing an idle stream. Fleet-wide: with tenants
 * on, only unscoped (system) callers may follow it (403 `HYPERFLEET-AUZ-001` otherwise). Open streams are
 * capped per caller and per process (`server.streams`, stream-slots.ts): 429 over a cap. A stream opened
 * with a token ends when the token expires (`exp`). HEAD answers the headers only.
 */
import { ApiHeader, ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { ApiProblems } from '../openapi/problem-responses.js';
import { Controller, Get, Headers, Inject, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { principalOf, scopeOf } from '../auth/request-authentication.js';
import { Problems } from '../problem-details/problem.js';
import { ValidationFailed } from '@decom/domain';
import { EventFeed, type LiveEvent } from './event-feed.js';
import { StreamSlots } from './stream-slots.js';

/** Nest token of the process's `StreamSlots` (caps from `server.streams`). */
export const STREAM_SLOTS = Symbol('STREAM_SLOTS');

const HEARTBEAT_MS = 15_000;
/** Longest delay a Node timer takes (a longer one fires at once); a stream ending then is simply reopened. */
const MAX_TIMER_MS = 2_147_483_647;
const STREAM_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
};
const MAX_BACKLOG = 1000;

@Controller('api/decom/v1/events')
@ApiTags('Decom')
export class EventsStreamController {
  constructor(
    private readonly feed: EventFeed,
    @Inject(STREAM_SLOTS) private readonly slots: StreamSlots,
  ) {}

  /**
   * @throws ValidationFailed (400) when `after` / `Last-Event-ID` is not a non-negative integer.
   * @throws HttpProblem 429 when the caller or the process holds its maximum of open streams.
   */
  @ApiOperation({ operationId: 'streamEvents', summary: 'Live feed of recorded events (Server-Sent Events)' })
  @ApiQuery({
    name: 'after',
    required: false,
    type: 'integer',
    minimum: 0,
    description: 'replay from after this $all position (or the `Last-Event-ID` header)',
  })
  @ApiHeader({ name: 'Last-Event-ID', required: false, description: 'as `after`, sent by a reconnecting EventSource' })
  @ApiOkResponse({ description: 'event stream', content: { 'text/event-stream': { schema: { type: 'string' } } } })
  @ApiProblems(400, 429)
  @Get('stream')
  async stream(
    @Res() reply: FastifyReply,
    @Req() req: FastifyRequest,
    @Query('after') after?: string,
    @Headers('last-event-id') lastEventId?: string,
  ): Promise<void> {
    if (scopeOf(req)) throw Problems.forbidden('the event stream is fleet-wide: with tenants on, only system callers may follow it');
    const from = after ?? lastEventId;
    const afterPosition = from === undefined ? undefined : Number(from);
    if (afterPosition !== undefined && (!Number.isInteger(afterPosition) || afterPosition < 0)) {
      throw new ValidationFailed(`after must be a non-negative integer ($all position), got "${from}"`, [
        { field: 'after', value: from, constraint: 'min', message: 'must be a non-negative integer' },
      ]);
    }
    if (req.method === 'HEAD') {
      // The headers a GET would get, and no stream: a HEAD holds no slot and waits for nothing.
      reply.hijack();
      reply.raw.writeHead(200, STREAM_HEADERS).end();
      return;
    }
    const release = this.slots.take(streamCaller(req));
    reply.hijack();
    const raw = reply.raw;
    // Everything the stream holds is given back on close, whenever it comes: also while the feed or the
    // backlog below is still awaited (a client gone by then must leave no timer or listener behind).
    let closed = false;
    let stop: (() => void) | undefined;
    let heartbeat: NodeJS.Timeout | undefined;
    let expiry: NodeJS.Timeout | undefined;
    raw.on('close', () => {
      closed = true;
      release();
      clearInterval(heartbeat);
      clearTimeout(expiry);
      stop?.();
    });
    raw.writeHead(200, STREAM_HEADERS);
    let lastSent = afterPosition ?? 0;
    const send = (event: LiveEvent) => {
      if (event.position <= lastSent) return;
      lastSent = event.position;
      raw.write(`id: ${event.position}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
    };
    // Join the live feed first, then send the backlog: nothing falls between the two (`send` skips repeats).
    const buffered: LiveEvent[] = [];
    let replaying = afterPosition !== undefined;
    const listening = await this.feed.listen(
      (event) => (replaying ? buffered.push(event) : send(event)),
      () => raw.end(),
    );
    if (closed) return listening();
    stop = listening;
    raw.write(`: connected\n\n`);
    if (afterPosition !== undefined) {
      const backlog = await this.feed.backlog(afterPosition, MAX_BACKLOG);
      if (closed) return;
      for (const event of backlog) send(event);
      replaying = false;
      for (const event of buffered.splice(0)) send(event);
    }
    heartbeat = setInterval(() => raw.write(`: heartbeat\n\n`), HEARTBEAT_MS);
    // A stream lives no longer than the token that opened it: the client reconnects with a fresh one.
    const expiresAt = principalOf(req).expires_at;
    if (expiresAt !== undefined) expiry = setTimeout(() => raw.end(), Math.min(MAX_TIMER_MS, Math.max(0, expiresAt - Date.now())));
  }
}

/** A verified caller is counted by issuer and identity; an unverified one (JWT off) by its address. */
function streamCaller(request: FastifyRequest): string {
  const principal = principalOf(request);
  return principal.issuer === null ? `address ${request.ip}` : `${principal.issuer} ${principal.identity}`;
}
