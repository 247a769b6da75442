/**
 * Errors Fastify answers before Nest sees the request (bad URL encoding, oversized headers, unsupported
 * media type) rendered as HyperFleet problem details too, so a client never gets another error format.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Socket } from 'node:net';
import { mapError } from '../problem-details/error-map.js';
import { PROBLEM_TYPE_BASE } from '../problem-details/problem.js';

/**
 * Fastify's error handler, for errors raised before a Nest route runs (the body parser's 400s, 415 for
 * other media types): the same problem details as the Nest filter.
 */
export function fastifyErrorHandler(error: Error & { statusCode?: number; code?: string }, request: FastifyRequest, reply: FastifyReply): void {
  const mapped = mapError(error);
  if (!mapped) return frameworkErrorHandler(error, request, reply);
  void reply
    .status(mapped.status)
    .header('content-type', 'application/problem+json')
    .send({
      type: PROBLEM_TYPE_BASE + mapped.typeSlug,
      title: mapped.title,
      status: mapped.status,
      detail: mapped.detail,
      code: mapped.code,
      timestamp: new Date().toISOString(),
      instance: (request.url ?? '').split('?')[0]!.slice(0, 2048),
      trace_id: String(request.id),
      ...(mapped.errors ? { errors: mapped.errors } : {}),
    });
}

export function frameworkErrorHandler(error: Error & { statusCode?: number; code?: string }, request: FastifyRequest, reply: FastifyReply): void {
  const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
  const internal = status >= 500;
  void reply
    .status(status)
    .header('content-type', 'application/problem+json')
    .send({
      type: `${PROBLEM_TYPE_BASE}${internal ? 'internal-error' : status === 415 ? 'malformed-request' : 'bad-request'}`,
      title: internal ? 'Internal Server Error' : status === 415 ? 'Malformed Request' : 'Bad Request',
      status,
      // Never echo an internal error's text (it may carry paths or stack fragments).
      detail: internal ? 'an unexpected error occurred' : error.code === 'FST_ERR_BAD_URL' ? 'the request URL is not valid (bad percent-encoding?)' : error.message,
      code: internal ? 'HYPERFLEET-INT-001' : 'HYPERFLEET-VAL-006',
      timestamp: new Date().toISOString(),
      instance: (request.url ?? '').split('?')[0]!.slice(0, 2048),
      trace_id: String(request.id),
    });
}

/** Node's HTTP parser errors (e.g. 431 header too large): answered before any request object exists. */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const title = status === 431 ? 'Request Header Fields Too Large' : 'Bad Request';
  const body = JSON.stringify({
    type: `${PROBLEM_TYPE_BASE}bad-request`,
    title,
    status,
    detail: status === 431 ? 'request headers or URL are too large' : 'the request could not be parsed',
    code: 'HYPERFLEET-VAL-006',
    timestamp: new Date().toISOString(),
  });
  if (socket.writable) {
    socket.end(`HTTP/1.1 ${status} ${title}\r\ncontent-type: application/problem+json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
  } else {
    socket.destroy();
  }
}
