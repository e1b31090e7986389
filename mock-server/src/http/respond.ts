import { HttpResponse, type HttpResponseResolver } from 'msw';
import { iso } from '../clock.js';
import type { MockContext } from '../context.js';
import { HttpError } from './errors.js';
import { NodeRequest } from './node-request.js';

const encoder = new TextEncoder();
const ASCII = /^[\x00-\x7f]*$/;

/** The body text of json()'s ASCII responses, which the standalone server writes as is. */
const asciiBodies = new WeakMap<Response, string>();

/** The body of a json() response when it is ASCII text, else undefined (read the body). */
export const asciiBody = (response: Response) => asciiBodies.get(response);

/**
 * `HttpResponse.json(body, init)`, the same response (headers, status, body), without the
 * Blob msw makes to count the body's bytes: it cost a third of a checkout call's time.
 */
export function json(body: object, init: { status?: number; headers?: Record<string, string> } = {}) {
  const text = JSON.stringify(body);
  const ascii = ASCII.test(text);
  const length = String(ascii ? text.length : encoder.encode(text).byteLength);
  let headers: HeadersInit = { 'content-type': 'application/json', 'content-length': length };
  if (init.headers) {
    // The caller's headers win, whatever their case, as they do with msw.
    headers = new Headers(init.headers);
    if (!headers.has('content-type')) headers.set('content-type', 'application/json');
    if (!headers.has('content-length')) headers.set('content-length', length);
  }
  const response = new HttpResponse(text, { status: init.status, headers });
  if (ascii) asciiBodies.set(response, text);
  return response;
}

/**
 * An answer the standalone server writes to node's response as it is, for a request it
 * handed over as a NodeRequest: the status, headers and body json() would give, without the
 * Response (its Headers and body stream were a fifth of the garbage of a checkout call).
 */
export class DirectAnswer {
  constructor(
    readonly status: number,
    /** Lower-case names, in the order a Response's headers iterate (sorted). */
    readonly headers: Readonly<Record<string, string>>,
    readonly text: string,
    readonly ascii: boolean,
  ) {}
}

/**
 * json() for the request being answered: the same answer as a DirectAnswer when the
 * standalone server asked (a NodeRequest) and no headers of the caller's need merging, else
 * the Response. Typed as a Response because resolvers are; only the server sees the other.
 */
export function reply(request: Request, body: object, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  if (!(request instanceof NodeRequest) || (init.headers && Object.keys(init.headers).length > 0)) return json(body, init);
  const text = JSON.stringify(body);
  const ascii = ASCII.test(text);
  const length = String(ascii ? text.length : encoder.encode(text).byteLength);
  return new DirectAnswer(init.status ?? 200, { 'content-length': length, 'content-type': 'application/json' }, text, ascii) as unknown as Response;
}

/** The widget backend's success envelope: `{ data, meta: { request_id, timestamp } }`. */
export function ok(ctx: MockContext, data: unknown, status = 200, headers: Record<string, string> = {}) {
  return json({ data, meta: { request_id: ctx.requestId(), timestamp: iso(ctx.clock.now()) } }, { status, headers });
}

/**
 * How a surface renders a thrown HttpError:
 * - `envelope`: widget backend, dashboard and ramp API, `{ error: {code, message}, meta }`;
 * - `sep`: anchor endpoints, `{ error: "text" }` (plus SEP-24's `type: "authentication_required"` on a token failure);
 * - `checkout`: checkout and gateway routes, `{ error: "text", message: "text" }`.
 */
export type ErrorStyle = 'envelope' | 'sep' | 'checkout';

/** The error's body in the surface's style; a DirectAnswer when `request` is the standalone server's (see reply). */
export function errorResponse(ctx: MockContext, style: ErrorStyle, err: HttpError, request?: Request) {
  const init = { status: err.status, headers: err.headers };
  const answer = (body: object) => (request ? reply(request, body, init) : json(body, init));
  if (style === 'sep') {
    // SEP-24 clients recognise a missing or expired token by `type`, and re-authenticate.
    const type = err.code === 'AUTHENTICATION_REQUIRED' ? { type: 'authentication_required' } : {};
    return answer({ ...type, error: err.message });
  }
  if (style === 'checkout') return answer({ error: err.message, message: err.message });
  return answer({
    error: { code: err.code, message: err.message },
    meta: { request_id: ctx.requestId(), timestamp: iso(ctx.clock.now()) },
  });
}

/**
 * The resolvers `route()` made: they read only `request` (its method, URL, headers and body,
 * what NodeRequest has) and `params`, never `finalize`, and never throw, so the standalone
 * server may match them as msw would and call them itself, with a NodeRequest.
 */
export const routedResolvers = new WeakSet<object>();

/**
 * Wraps a resolver so that a thrown HttpError becomes the surface's error body and
 * anything else a 500 INTERNAL_ERROR (logged, never leaking internals to the caller).
 */
export function route<R extends HttpResponseResolver<any, any, any>>(ctx: MockContext, style: ErrorStyle, resolver: R): R {
  const wrapped = async (info: Parameters<R>[0]) => {
    try {
      return await resolver(info);
    } catch (error) {
      if (error instanceof HttpError) return errorResponse(ctx, style, error, info.request);
      console.error('[sikaramp-mock] handler failed:', error);
      return errorResponse(ctx, style, new HttpError(500, 'INTERNAL_ERROR', 'internal error'), info.request);
    }
  };
  routedResolvers.add(wrapped);
  return wrapped as R;
}
