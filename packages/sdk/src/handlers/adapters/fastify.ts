/**
 * @sikaramp/sdk/handlers/fastify: a web-standard handler as a Fastify route handler.
 *
 * Fastify parses JSON bodies, and the webhook handler needs the bytes as they were sent: call
 * `rawBodies(scope)` in the plugin that holds the handlers' routes (it keeps every body of that
 * scope as a Buffer, and bad JSON gets the handler's JSON error rather than Fastify's), or use
 * a raw-body plugin that sets `request.rawBody`. A parsed body can only be written again, and
 * no longer matches its signature: the webhook handler answers 400.
 *
 * ```ts
 * app.register(async (scope) => {
 *   rawBodies(scope);
 *   scope.post('/api/ramp/session', toFastify(ramp.session));
 *   scope.post('/webhooks', toFastify(webhook));
 * });
 * ```
 */
import type { IncomingMessage } from 'node:http';
import { headersOf, readBodyOf, toWebRequest } from './node.js';

/** What the adapter reads of Fastify's request. */
export interface FastifyLikeRequest {
  raw: IncomingMessage;
  url: string;
  protocol?: string;
  body?: unknown;
  rawBody?: unknown;
}

/** What the adapter writes through Fastify's reply. */
export interface FastifyLikeReply {
  code(status: number): FastifyLikeReply;
  headers(values: Record<string, string | string[]>): FastifyLikeReply;
  send(payload: Buffer): FastifyLikeReply;
}

/** What `rawBodies` calls on a Fastify instance or plugin scope. */
export interface FastifyLikeScope {
  removeAllContentTypeParsers(): void;
  addContentTypeParser(
    type: string,
    options: { parseAs: 'buffer' },
    parser: (request: unknown, body: Buffer, done: (error: Error | null, body?: Buffer) => void) => void,
  ): void;
}

export function toFastify(handler: (request: Request) => Promise<Response>): (request: FastifyLikeRequest, reply: FastifyLikeReply) => Promise<FastifyLikeReply> {
  return async (request, reply) => {
    const response = await handler(await toWebRequest(request.raw, request.url, readBodyOf(request), request.protocol));
    return reply
      .code(response.status)
      .headers(headersOf(response))
      .send(Buffer.from(await response.arrayBuffer()));
  };
}

/** Keeps every request body of `scope` as the Buffer that arrived, whatever its content type. */
export function rawBodies(scope: FastifyLikeScope): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
}
