/**
 * The transport under every client, over real HTTP on 127.0.0.1: on Node, node:http with keep-alive
 * (core/transport.ts); on other runtimes, the platform's fetch. A call must see the same answer
 * either way: compressed bodies decoded, no-content answers, connections kept alive, the
 * deadline and the caller's signal honoured.
 */
import { execFile } from 'node:child_process';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HttpCore } from '../src/core/http.js';
import { AbortError, TimeoutError } from '../src/index.js';
import { startTestServer, type TestServer } from './helpers/http-server.js';

const Thing = z.looseObject({ id: z.string() });
/** An answer both a Thing and a checkout payment (for the built client in another process). */
const payment = { id: 'réponse', reference: 'PAY-1', status: 'pending', amount: 1, final_amount: 1, currency: 'GHS' };
const body = JSON.stringify({ data: payment });
const encoders: Record<string, (b: Buffer) => Buffer> = {
  gzip: (b) => gzipSync(b),
  'x-gzip': (b) => gzipSync(b),
  deflate: (b) => deflateSync(b),
  'deflate-raw': (b) => deflateRawSync(b),
  br: (b) => brotliCompressSync(b),
};

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer(async (req, res) => {
    // The answer a request asks for: `x-answer` (a client whose paths are fixed), else its path.
    const [kind, arg] = String(req.headers['x-answer'] ?? req.url.slice(1)).split('/');
    if (kind === 'encoded') {
      // `deflate-raw` is what some servers send as `deflate`: a raw stream without the zlib header.
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': arg === 'deflate-raw' ? 'deflate' : arg! });
      res.end(encoders[arg!]!(Buffer.from(body)));
    } else if (kind === 'untyped') {
      res.writeHead(200).end('plain words');
    } else if (kind === 'empty') {
      res.writeHead(204).end();
    } else if (kind === 'slow-body') {
      // Headers at once, the body never: the deadline must cover reading the answer.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"data":');
    } else {
      res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    }
  });
});
afterAll(() => server.close());

const core = (options: { timeout?: number; maxRetries?: number } = {}) => new HttpCore({ baseUrl: server.url, maxRetries: 0, ...options });

describe('the Node transport', () => {
  it.each(Object.keys(encoders))('reads an answer sent with content-encoding %s, having offered it', async (encoding) => {
    await expect(core().get(`encoded/${encoding}`, { schema: Thing })).resolves.toEqual(payment);
    const sent = server.requests.at(-1)!;
    expect(sent.headers['accept-encoding']).toBe('gzip, deflate, br');
  });

  it('reads a 204 as no body', async () => {
    await expect(core().delete('empty', { schema: z.undefined(), unwrap: false })).resolves.toBeUndefined();
  });

  it('gives the answer headers as sent: none added where the server named no content type', async () => {
    const { response, body: text } = await core().send('GET', 'untyped', {});
    expect(text).toBe('plain words');
    expect(response.headers.get('content-type')).toBeNull();
  });

  it('keeps one connection alive across sequential calls, and sends what fetch would not add', async () => {
    const before = server.requests.length;
    const client = core();
    for (let i = 0; i < 20; i++) await client.get('plain', { schema: Thing });
    const sent = server.requests.slice(before);
    const ports = new Set(sent.map((r) => r.remotePort));
    expect(ports.size).toBe(1);
    // undici's fetch adds these to every request; node:http does not.
    expect(sent[0]!.headers['sec-fetch-mode']).toBeUndefined();
  });

  it('times out while the body is still arriving, and a caller abort wins over the deadline', async () => {
    const started = performance.now();
    await expect(core({ timeout: 150 }).get('slow-body', { schema: Thing })).rejects.toBeInstanceOf(TimeoutError);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('user left')), 50);
    await expect(core({ timeout: 5_000 }).get('slow-body', { schema: Thing, signal: controller.signal })).rejects.toBeInstanceOf(AbortError);
  });
});

describe('on a runtime that is not Node', () => {
  it('uses the platform fetch, with the same answers, deadline and errors', async () => {
    // A Node process that says it is Deno: the built SDK must take the fetch path there.
    const script = `
      Object.defineProperty(globalThis, 'navigator', { value: { userAgent: 'Deno/2.1.0' }, configurable: true });
      const { CheckoutClient } = await import(${JSON.stringify(new URL('../dist/index.js', import.meta.url).href)});
      const client = (answer) => new CheckoutClient({ baseUrl: ${JSON.stringify(server.url)}, maxRetries: 0, timeout: 150, defaultHeaders: { 'x-answer': answer } });
      const out = { gzip: await client('encoded/gzip').payments.verify('cs_1') };
      try { await client('slow-body').payments.verify('cs_1'); } catch (error) { out.slow = error.name; }
      console.log(JSON.stringify(out));
    `;
    expect(existsSync(new URL('../dist/index.js', import.meta.url)), 'build first: pnpm --filter @sikaramp/sdk build').toBe(true);
    const before = server.requests.length;
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, ['--input-type=module', '-e', script], { cwd: new URL('..', import.meta.url).pathname, timeout: 20_000 }, (error, out, err) =>
        error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out),
      ),
    );
    expect(JSON.parse(stdout)).toEqual({ gzip: expect.objectContaining({ paid: false, session: expect.objectContaining({ reference: 'PAY-1', status: 'pending' }) }), slow: 'TimeoutError' });
    expect(server.requests[before]!.headers['sec-fetch-mode']).toBe('cors');
  }, 30_000);
});
