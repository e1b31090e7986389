/**
 * The Node transport (core/transport.ts) against a server that misbehaves at the byte level: a
 * raw TCP server on 127.0.0.1 writes each answer by hand. Each case must end in the typed error
 * a fetch-based call would give, promptly, never in a call that hangs or a process that runs
 * out of memory.
 */
import { createServer as createHttpServer, request as httpRequest, type IncomingMessage, type Server as HttpServer } from 'node:http';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HttpCore } from '../src/core/http.js';
import { MAX_RESPONSE_BYTES } from '../src/core/transport.js';
import { ApiError, ConnectionError, ResponseTooLargeError, TimeoutError } from '../src/index.js';

const Thing = z.looseObject({ id: z.string() });
const ok = '{"data":{"id":"x1"}}';
/** A gzip answer of 64 KB that inflates to 4 times the limit. */
const bomb = gzipSync(Buffer.alloc(4 * MAX_RESPONSE_BYTES, 32));

/** What the server writes for the answer a request names in `x-answer`. */
const answers: Record<string, (socket: Socket) => void> = {
  upgrade: (s) => s.end('HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: upgrade\r\n\r\n'),
  informational: (s) =>
    s.end(`HTTP/1.1 103 Early Hints\r\nlink: </a>\r\n\r\nHTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\ncontent-length: ${ok.length}\r\nconnection: close\r\n\r\n${ok}`),
  'byte-by-byte': (s) => {
    const text = `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${ok.length}\r\nconnection: close\r\n\r\n${ok}`;
    let i = 0;
    const timer = setInterval(() => (i < text.length ? s.write(text[i++]!) : (clearInterval(timer), s.end())), 0);
  },
  'short-of-content-length': (s) => s.end('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"data":{"id"'),
  'past-content-length': (s) => s.end(`HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\n${ok}`),
  'chunked-cut': (s) => {
    s.write('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5\r\n{"dat\r\n');
    setTimeout(() => s.destroy(), 20);
  },
  ...Object.fromEntries(
    ['gzip', 'deflate', 'br'].map((encoding) => [`empty-${encoding}`, (s: Socket) => s.end(`HTTP/1.1 200 OK\r\ncontent-encoding: ${encoding}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n`)]),
  ),
  stacked: (s) => {
    // Gzipped, then brotli'd: `Content-Encoding` lists them in the order they were applied.
    const body = brotliCompressSync(gzipSync(ok));
    s.write(`HTTP/1.1 200 OK\r\ncontent-encoding: gzip, br\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n`);
    s.end(body);
  },
  // The same codings on two header lines, in another case: read as one list, as fetch reads them.
  'stacked-lines': (s) => {
    const body = brotliCompressSync(gzipSync(ok));
    s.write(`HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nCONTENT-ENCODING: br\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n`);
    s.end(body);
  },
  'status-999': (s) => s.end('HTTP/1.1 999 Request denied\r\ncontent-type: application/json\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}'),
  'not-http': (s) => s.end('NOT HTTP AT ALL\r\n\r\n'),
  bomb: (s) => {
    s.write(`HTTP/1.1 200 OK\r\ncontent-encoding: gzip\r\ncontent-length: ${bomb.length}\r\nconnection: close\r\n\r\n`);
    s.end(bomb);
  },
  endless: (s) => {
    s.write('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n');
    const chunk = Buffer.alloc(64 * 1024, 32);
    const more = () => {
      while (!s.destroyed && s.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`));
      if (!s.destroyed) s.once('drain', more);
    };
    more();
  },
};

let server: Server;
let url: string;
/** Bytes each answer wrote before the client hung up. */
const written = new Map<string, number>();
/** How many times each answer was asked for. */
const served = new Map<string, number>();
const sockets = new Set<Socket>();
beforeAll(async () => {
  server = createServer((socket) => {
    sockets.add(socket);
    let head = '';
    socket.on('error', () => {});
    socket.on('data', (data) => {
      head += data;
      const answer = /x-answer: ([\w-]+)/i.exec(head)?.[1];
      if (!head.includes('\r\n\r\n') || !answer) return;
      head = '';
      served.set(answer, (served.get(answer) ?? 0) + 1);
      socket.on('close', () => written.set(answer, socket.bytesWritten));
      answers[answer]!(socket);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const call = (answer: string, timeout = 5_000) =>
  new HttpCore({ baseUrl: url, maxRetries: 0, timeout, defaultHeaders: { 'x-answer': answer } }).get('x', { schema: Thing });

/** The call's error and how long it took to come, ms. */
async function failure(answer: string, timeout?: number): Promise<{ error: unknown; ms: number }> {
  const started = performance.now();
  const error = await call(answer, timeout).then(
    () => undefined,
    (e: unknown) => e,
  );
  return { error, ms: performance.now() - started };
}

describe('the Node transport against a misbehaving server', () => {
  it('fails an unsolicited 101 Switching Protocols at once as a ConnectionError, not a call that never settles', async () => {
    const { error, ms } = await failure('upgrade', 2_000);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).not.toBeInstanceOf(TimeoutError);
    expect(ms).toBeLessThan(1_000);
  });

  it('reads the final answer after 103 Early Hints and 100 Continue', async () => {
    await expect(call('informational')).resolves.toEqual({ id: 'x1' });
  });

  it('reads an answer that arrives one byte at a time', async () => {
    await expect(call('byte-by-byte')).resolves.toEqual({ id: 'x1' });
  });

  it.each(['gzip', 'deflate', 'br'])('reads an empty answer labelled %s as no body, as fetch does', async (encoding) => {
    const core = new HttpCore({ baseUrl: url, maxRetries: 0, defaultHeaders: { 'x-answer': `empty-${encoding}` } });
    await expect(core.delete('x', { schema: z.undefined(), unwrap: false })).resolves.toBeUndefined();
  });

  it('reads an answer encoded twice (gzip, then br), as fetch does', async () => {
    await expect(call('stacked')).resolves.toEqual({ id: 'x1' });
    await expect(call('stacked-lines')).resolves.toEqual({ id: 'x1' });
  });

  it('gives a status past 599 (999, as some firewalls answer) as the ApiError fetch would give, unretried', async () => {
    const error = await new HttpCore({ baseUrl: url, maxRetries: 2, defaultHeaders: { 'x-answer': 'status-999' } }).get('x', { schema: Thing }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 999 });
    expect(served.get('status-999')).toBe(1);
  });

  it.each(['short-of-content-length', 'past-content-length', 'chunked-cut', 'not-http'])('fails an answer %s as a ConnectionError at once', async (answer) => {
    const { error, ms } = await failure(answer);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).not.toBeInstanceOf(TimeoutError);
    expect(ms).toBeLessThan(1_000);
  });

  it('refuses a gzip answer that inflates past the limit with ResponseTooLargeError, never holding more than the limit', async () => {
    const { error } = await failure('bomb');
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({ limit: MAX_RESPONSE_BYTES });
    expect((error as Error).message).toContain(`${MAX_RESPONSE_BYTES} bytes`);
  });

  it('stops reading an answer that never ends once it passes the limit, long before the deadline', async () => {
    const { error, ms } = await failure('endless', 30_000);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(ms).toBeLessThan(10_000);
    // The client hung up: the server could not write much more than the limit.
    await expect.poll(() => written.get('endless')).toBeLessThan(4 * MAX_RESPONSE_BYTES);
  });
});

/**
 * A fetch as node-fetch 2 makes it, over node:http: its Response's body is a Node stream, not a
 * WHATWG one, so the answer can only be read with text() (and friends).
 */
const nodeStreamFetch = (async (input: Request) => {
  const res = await new Promise<IncomingMessage>((resolve, reject) => {
    const headers = Object.fromEntries(input.headers);
    httpRequest(input.url, { method: input.method, headers }, resolve).on('error', reject).end();
  });
  const text = async () => {
    let all = '';
    for await (const chunk of res) all += chunk;
    return all;
  };
  return { status: res.statusCode, ok: res.statusCode! < 300, statusText: res.statusMessage, headers: new Headers(res.headers as Record<string, string>), body: res, text, url: input.url, redirected: false, type: 'basic' };
}) as unknown as typeof fetch;

describe('a fetch of the caller\'s own', () => {
  it('whose body is a Node stream (node-fetch 2) is read with its text()', async () => {
    const core = new HttpCore({ baseUrl: url, maxRetries: 0, fetch: nodeStreamFetch, defaultHeaders: { 'x-answer': 'informational' } });
    await expect(core.get('x', { schema: Thing })).resolves.toEqual({ id: 'x1' });
  });

  it.each(['bomb', 'endless'])('is held to the same limit: %s is ResponseTooLargeError', async (answer) => {
    const core = new HttpCore({ baseUrl: url, maxRetries: 0, timeout: 30_000, fetch: (input, init) => fetch(input, init), defaultHeaders: { 'x-answer': answer } });
    await expect(core.get('x', { schema: Thing })).rejects.toBeInstanceOf(ResponseTooLargeError);
  });
});

describe('TLS', () => {
  let plain: HttpServer;
  beforeAll(async () => {
    plain = createHttpServer((_req, res) => res.end(ok));
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => plain.close(() => resolve())));

  it('surfaces a failed handshake (a plain HTTP server at an https: URL) as a ConnectionError with the TLS cause', async () => {
    const { port } = plain.address() as AddressInfo;
    const error = await new HttpCore({ baseUrl: `https://127.0.0.1:${port}`, maxRetries: 0 }).get('x', { schema: Thing }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    const root = ((error as Error).cause as Error).cause as NodeJS.ErrnoException;
    expect(root.code).toMatch(/^(EPROTO|ERR_SSL_)/);
  });
});
