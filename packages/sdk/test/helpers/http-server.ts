/**
 * A real HTTP server on 127.0.0.1, port 0, that records every request, as ky's tests do.
 * The handler decides the answer; `requests` lets a test count attempts and read headers.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** performance.now() when the request arrived, ms. */
  at: number;
  /** The client's port: the same for requests that shared a kept-alive connection. */
  remotePort: number | undefined;
}

export interface TestServer {
  url: string;
  requests: Recorded[];
  close(): Promise<void>;
}

export type Handler = (req: Recorded, res: ServerResponse, index: number) => void | Promise<void>;

export async function startTestServer(handler: Handler): Promise<TestServer> {
  const requests: Recorded[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const recorded: Recorded = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: performance.now(),
        remotePort: req.socket.remotePort,
      };
      requests.push(recorded);
      Promise.resolve(handler(recorded, res, requests.length - 1)).catch((error: unknown) => {
        res.destroy(error instanceof Error ? error : undefined);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Answers JSON with a status and optional headers. */
export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** The widget backend's success envelope. */
export const envelope = (data: unknown, requestId = 'req_test') => ({
  data,
  meta: { request_id: requestId, timestamp: '2026-01-01T00:00:00.000Z' },
});

/** The widget backend's error envelope. */
export const errorEnvelope = (code: string, message: string, requestId = 'req_err') => ({
  error: { code, message },
  meta: { request_id: requestId, timestamp: '2026-01-01T00:00:00.000Z' },
});
