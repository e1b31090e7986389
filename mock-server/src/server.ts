/**
 * The standalone server: msw's `getResponse(handlers, request)` behind `node:http`, every
 * surface on one port (msw 3 has no server of its own). Adds what a browser needs to call
 * it cross-origin (CORS) and passes the socket's address to IP allowlists.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getResponse } from 'msw';
import { createMockBackend, type MockBackend } from './backend.js';
import { CLIENT_IP_HEADER } from './http/auth.js';
import { HttpError, notFound } from './http/errors.js';
import { errorResponse } from './http/respond.js';
import type { MockBackendOptions } from './options.js';

/** Largest request body the server accepts, bytes. */
const MAX_REQUEST_BYTES = 2 * 1024 * 1024;

export interface MockServerOptions extends Omit<MockBackendOptions, 'origin'> {
  /** Port to listen on; 0 picks a free one. Default 4010. */
  port?: number;
  /** Address to bind. Default `127.0.0.1`. */
  host?: string;
}

export interface MockServer {
  /** `http://host:port`: widget backend, dashboard, ramp and checkout APIs live here. */
  url: string;
  backend: MockBackend;
  close(): Promise<void>;
}

export async function startMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  const { port = 4010, host = '127.0.0.1', ...backendOptions } = options;
  let backend: MockBackend | undefined;
  const server = createServer((req, res) => {
    if (!backend) return void res.writeHead(503).end();
    const ready = backend;
    handle(ready, req, res).catch(async (error: unknown) => {
      // A client that hung up mid-request is gone: nothing to answer, nothing to report.
      if ((error as NodeJS.ErrnoException).code === 'ECONNRESET') return void res.destroy();
      console.error('[sikaramp-mock] request failed:', error);
      if (res.headersSent) return void res.end();
      await send(res, errorResponse(ready.context, 'envelope', new HttpError(500, 'INTERNAL_ERROR', 'internal error')), {});
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${hostPart}:${address.port}`;
  backend = createMockBackend({ ...backendOptions, origin: url });
  const ready = backend;
  return {
    url,
    backend: ready,
    close: () =>
      new Promise<void>((resolve, reject) => {
        ready.clock.stop();
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}

async function handle(backend: MockBackend, req: IncomingMessage, res: ServerResponse) {
  const origin = req.headers.origin;
  const cors: Record<string, string> = origin
    ? {
        'access-control-allow-origin': origin,
        'access-control-allow-credentials': 'true',
        'access-control-expose-headers': 'retry-after, x-request-id',
        vary: 'Origin',
      }
    : {};
  if (req.method === 'OPTIONS' && req.headers['access-control-request-method']) {
    res.writeHead(204, {
      ...cors,
      'access-control-allow-methods': 'GET, POST, PUT, DELETE, PATCH, OPTIONS',
      'access-control-allow-headers': req.headers['access-control-request-headers'] ?? '*',
      'access-control-max-age': '600',
    });
    return void res.end();
  }

  const body = await readBody(req);
  if (body === 'too large') {
    const tooLarge = new HttpError(413, 'VALIDATION_ERROR', 'request body is too large');
    return send(res, errorResponse(backend.context, 'envelope', tooLarge), cors);
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name.toLowerCase() === CLIENT_IP_HEADER) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  headers.set(CLIENT_IP_HEADER, (req.socket.remoteAddress ?? '').replace(/^::ffff:/, ''));
  const request = new Request(new URL(req.url ?? '/', backend.urls.origin), {
    method: req.method,
    headers,
    body: body && body.length > 0 ? new Uint8Array(body) : undefined,
  });

  // Every path under the origin has a handler (a catch-all 404 comes last), so this always answers.
  const response =
    (await getResponse(backend.handlers, request)) ??
    errorResponse(backend.context, 'envelope', notFound(`route ${req.method} ${new URL(request.url).pathname}`));
  if (backend.context.options.log) console.log(`[sikaramp-mock] ${req.method} ${req.url} -> ${response.status}`);
  return send(res, response, cors);
}

/** Writes a fetch Response to a node:http response, with extra headers (CORS). */
async function send(res: ServerResponse, response: Response, extra: Record<string, string>) {
  const out: Record<string, string | string[]> = { ...extra };
  response.headers.forEach((value, name) => {
    if (name === 'set-cookie') return;
    out[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) out['set-cookie'] = cookies;
  res.writeHead(response.status, out);
  res.end(Buffer.from(await response.arrayBuffer()));
}

function readBody(req: IncomingMessage): Promise<Buffer | undefined | 'too large'> {
  if (req.method === 'GET' || req.method === 'HEAD') return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_REQUEST_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > MAX_REQUEST_BYTES ? 'too large' : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
