/**
 * Errors Fastify answers before Nest sees the request (bad URL encoding, oversized headers, unsupported
 * media type) rendered as HyperFleet problem details too, so a client never gets another error format.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import type { Socket } from 'node:net';
import { mapError } from '../problem-details/error-map.js';
import { PROBLEM_TYPE_BASE } from '../problem-details/problem.js';
import { boundedProblem } from '../problem-details/bounded.js';

/**
 * Fastify's error handler, for errors raised before a Nest route runs (the body parser's 400s, 415 for
 * other media types): the same problem details as the Nest filter.
 */
export function fastifyErrorHandler(
  error: Error & { statusCode?: number; code?: string },
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const mapped = mapError(error);
  if (!mapped) return frameworkErrorHandler(error, request, reply);
  void reply
    .status(mapped.status)
    .header('content-type', 'application/problem+json')
    .send(
      boundedProblem({
        type: PROBLEM_TYPE_BASE + mapped.typeSlug,
        title: mapped.title,
        status: mapped.status,
        detail: mapped.detail,
        code: mapped.code,
        timestamp: new Date().toISOString(),
        instance: (request.url ?? '').split('?')[0]!.slice(0, 2048),
        trace_id: String(request.id),
        ...(mapped.errors ? { errors: mapped.errors } : {}),
      }),
    );
}

export function frameworkErrorHandler(
  error: Error & { statusCode?: number; code?: string },
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
  const internal = status >= 500;
  void reply
    .status(status)
    .header('content-type', 'application/problem+json')
    .send(
      boundedProblem({
        type: `${PROBLEM_TYPE_BASE}${internal ? 'internal-error' : status === 415 ? 'malformed-request' : 'bad-request'}`,
        title: internal ? 'Internal Server Error' : status === 415 ? 'Malformed Request' : status === 414 ? 'URI Too Long' : 'Bad Request',
        status,
        detail: frameworkDetail(error, internal),
        code: internal ? 'HYPERFLEET-INT-001' : 'HYPERFLEET-VAL-006',
        timestamp: new Date().toISOString(),
        instance: (request.url ?? '').split('?')[0]!,
        trace_id: String(request.id),
      }),
    );
}

/** Fastify's messages quote the URL (`'/api/…' is exceeding the max param length`): say what is wrong instead. */
function frameworkDetail(error: Error & { code?: string }, internal: boolean): string {
  // Never echo an internal error's text (it may carry paths or stack fragments).
  if (internal) return 'an unexpected error occurred';
  if (error.code === 'FST_ERR_BAD_URL') return 'the request URL is not valid (bad percent-encoding?)';
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH')
    return `a path segment is longer than ${MAX_PATH_SEGMENT_CHARS} characters (ids and names are far shorter)`;
  return error.message;
}

/**
 * Node's HTTP parser errors, answered before any request object exists. Node reports a URL that does not
 * fit in `maxHeaderSize` as a header overflow (431); when the request line itself is what overflowed (no
 * line end in the bytes received, or a line longer than `MAX_REQUEST_LINE_CHARS`) the answer is 414 URI Too
 * Long (RFC 9110 §15.5.15) instead. Nothing of the request is echoed.
 */
export function clientErrorHandler(
  error: Error & { code?: string; rawPacket?: Buffer },
  socket: Socket,
  onAnswer?: (status: number, traceId: string) => void,
): void {
  // Node's headersTimeout / requestTimeout (create-api-app.ts) end a request the client never finished: 408.
  const timedOut = error.code === 'ERR_HTTP_REQUEST_TIMEOUT';
  const status = timedOut ? 408 : error.code === 'HPE_HEADER_OVERFLOW' ? (requestLineOverflowed(error.rawPacket) ? 414 : 431) : 400;
  // No request object exists, so no request id was generated: a fresh trace id finds this answer in the log.
  const traceId = randomBytes(16).toString('hex');
  const title = timedOut
    ? 'Request Timeout'
    : status === 414
      ? 'URI Too Long'
      : status === 431
        ? 'Request Header Fields Too Large'
        : 'Bad Request';
  const detail = timedOut
    ? 'the request was not received in time'
    : status === 414
      ? 'the request URL is too long'
      : status === 431
        ? 'the request headers are too large'
        : 'the request could not be parsed';
  const body = JSON.stringify({
    type: `${PROBLEM_TYPE_BASE}bad-request`,
    title,
    status,
    detail,
    code: 'HYPERFLEET-VAL-006',
    timestamp: new Date().toISOString(),
    trace_id: traceId,
  });
  onAnswer?.(status, traceId);
  // A HEAD request's answer has no content (RFC 9110 §9.3.2), even when the rest of it could not be parsed.
  const head = error.rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ';
  if (socket.writable) {
    socket.end(
      `HTTP/1.1 ${status} ${title}\r\ncontent-type: application/problem+json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nx-request-id: ${traceId}\r\nconnection: close\r\n\r\n${head ? '' : body}`,
    );
  } else {
    socket.destroy();
  }
}

/** Longest path segment the router matches (Fastify's `maxParamLength`); a longer one is answered 414. */
export const MAX_PATH_SEGMENT_CHARS = 100;
/** A request line longer than this, when the headers overflow, means the URL is what is too large. */
export const MAX_REQUEST_LINE_CHARS = 8 * 1024;

function requestLineOverflowed(packet: Buffer | undefined): boolean {
  if (!packet || packet.length === 0) return false;
  const end = packet.indexOf('\r\n');
  return end < 0 ? /^[A-Z]+ /.test(packet.subarray(0, 16).toString('latin1')) : end > MAX_REQUEST_LINE_CHARS;
}
