/**
 * What reaches the standalone server's socket before any handler runs: bytes that are not
 * HTTP, a body too large to read, a client that hangs up halfway through its body, and one
 * that never finishes it. The server answers or drops each one, keeps serving everybody
 * else, and stores nothing.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../src/server.js';
import { send, storeText } from './harness.js';

/** Writes `bytes` on a fresh connection and resolves with whatever comes back before the server closes it (or `ms` pass). */
function rawExchange(url: string, bytes: string | Buffer, { ms = 2_000, end = true } = {}): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    const done = () => resolve(Buffer.concat(chunks).toString('latin1'));
    socket.setTimeout(ms, () => {
      socket.destroy();
      done();
    });
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('close', done);
    socket.on('error', reject);
    socket.write(bytes, () => end && socket.end());
  });
}

describe('bad bytes at the standalone server (127.0.0.1)', () => {
  let server: MockServer;
  beforeAll(async () => {
    server = await startMockServer({ port: 0, clock: 'manual', seed: 5 });
  });
  afterAll(() => server.close());

  const stillServing = async () => {
    const res = await send(`${server.url}/anchor/info`, { method: 'GET' });
    expect(res.status).toBe(200);
  };

  it.each([
    ['bytes that are not HTTP', 'GARBAGE GARBAGE GARBAGE\r\n\r\n'],
    ['a request line with a bad version', 'GET /anchor/info HTTP/9.Z\r\n\r\n'],
    ['a header without a colon', 'GET /anchor/info HTTP/1.1\r\nHost: x\r\nnot a header\r\n\r\n'],
    ['a negative Content-Length', 'POST /api/v1/merchant/login HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n'],
    ['both Content-Length and chunked', 'POST /api/v1/merchant/login HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n'],
    ['a bad chunk size', 'POST /api/v1/merchant/login HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n'],
  ])('answers %s with 400 and keeps serving', async (_what, bytes) => {
    const before = storeText(server.backend.store);
    const answer = await rawExchange(server.url, bytes);
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    await stillServing();
    expect(storeText(server.backend.store)).toBe(before);
  });

  it('refuses a body over 2 MB with 413 VALIDATION_ERROR and stores nothing', async () => {
    const before = storeText(server.backend.store);
    const body = JSON.stringify({ name: 'x'.repeat(3 * 1024 * 1024) });
    const res = await send(`${server.url}/api/v1/merchant/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: { code: 'VALIDATION_ERROR', message: 'request body is too large' }, meta: expect.objectContaining({ request_id: expect.any(String) }) });
    expect(storeText(server.backend.store)).toBe(before);
    await stillServing();
  });

  it('refuses a body over 1 MB (but under the socket limit) with the 400 envelope', async () => {
    const body = JSON.stringify({ name: 'x'.repeat(1_500_000) });
    const res = await send(`${server.url}/api/v1/merchant/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: 'VALIDATION_ERROR', message: 'request body is too large' }, meta: expect.any(Object) });
  });

  it('drops a client that hangs up halfway through its body, storing nothing', async () => {
    const before = storeText(server.backend.store);
    const head = 'POST /api/v1/merchant/register HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n';
    await rawExchange(server.url, `${head}{"name":"Kofi","legal_name":"Kofi Ltd",`, { ms: 300 });
    await stillServing();
    expect(storeText(server.backend.store)).toBe(before);
  });

  it('keeps answering others while a client sends its body one byte at a time', async () => {
    const { hostname, port } = new URL(server.url);
    const slow = connect(Number(port), hostname);
    slow.on('error', () => {});
    slow.write('POST /api/v1/merchant/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{');
    try {
      const answers = await Promise.all(Array.from({ length: 20 }, stillServing));
      expect(answers).toHaveLength(20);
    } finally {
      slow.destroy();
    }
  });
});
