/** Node's request and response (Express and Fastify sit on them) turned into web ones and back. */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';

/** A body the framework has already read: the raw bytes, or (the mistake) a parsed value. */
export type ReadBody = { raw: Uint8Array | string } | { parsed: unknown } | undefined;

/**
 * Bytes already read win; a parsed body can only be written again as JSON, which a webhook
 * signature then refuses (400): mount a raw body parser on webhook routes. An unread body is
 * read from the stream.
 */
export async function toWebRequest(req: IncomingMessage, path: string, read: ReadBody, protocol = 'http'): Promise<Request> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers as IncomingHttpHeaders)) {
    if (value === undefined) continue;
    for (const one of [value].flat()) headers.append(name, one);
  }
  let url: URL;
  try {
    url = new URL(path, `${protocol}://${req.headers.host ?? 'localhost'}`);
  } catch {
    url = new URL(path, 'http://localhost');
  }
  const method = req.method ?? 'GET';
  if (method === 'GET' || method === 'HEAD') return new Request(url, { method, headers });
  let body: Uint8Array | string | ReadableStream<Uint8Array>;
  if (read && 'raw' in read) body = read.raw;
  else if (read && read.parsed !== undefined) body = JSON.stringify(read.parsed);
  else if (!req.readableEnded) return new Request(url, { method, headers, body: streamOf(req), duplex: 'half' } as RequestInit);
  else body = '';
  // The length the client sent no longer describes a body that was re-serialised.
  headers.delete('content-length');
  return new Request(url, { method, headers, body: body as BodyInit });
}

/**
 * The unread body as a web stream that takes from `req` only as fast as the handler reads, so
 * that the handler's size limit bounds what is held: reading it all first would hold a chunked
 * body of any length. What the handler leaves unread stays in the socket; `sendWebResponse`
 * then closes the connection after the answer.
 */
function streamOf(req: IncomingMessage): ReadableStream<Uint8Array> {
  let open = true;
  const stop = () => {
    open = false;
    req.pause();
    req.off('data', onData);
  };
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const onData = (chunk: Buffer | string) => {
    if (!open) return;
    controller.enqueue(typeof chunk === 'string' ? new TextEncoder().encode(chunk) : new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    if ((controller.desiredSize ?? 0) <= 0) req.pause();
  };
  return new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      req.on('data', onData);
      req.pause();
      req.once('end', () => open && (stop(), controller.close()));
      req.once('close', () => open && (stop(), controller.error(new Error('The client closed the request before its body ended'))));
    },
    pull() {
      if (open) req.resume();
    },
    cancel: stop,
  });
}

/** Reads what a framework stored: `rawBody` (set by a raw-body plugin or a `verify` hook), else `body`. */
export function readBodyOf(req: { rawBody?: unknown; body?: unknown }): ReadBody {
  for (const value of [req.rawBody, req.body]) {
    if (typeof value === 'string' || value instanceof Uint8Array) return { raw: value };
  }
  return req.body === undefined ? undefined : { parsed: req.body };
}

/** The headers of a web Response as Node writes them (`set-cookie` kept apart). */
export function headersOf(response: Response): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') out[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) out['set-cookie'] = cookies;
  return out;
}

export async function sendWebResponse(response: Response, res: ServerResponse): Promise<void> {
  // A body the handler refused unread (413) is not read to its end: the connection closes instead.
  if (res.req && !res.req.complete) res.setHeader('connection', 'close');
  res.writeHead(response.status, headersOf(response));
  res.end(Buffer.from(await response.arrayBuffer()));
}
