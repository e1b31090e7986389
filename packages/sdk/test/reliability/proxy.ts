/**
 * A real node:http server on 127.0.0.1 in front of the mock server, that can drop a request
 * mid-flight: it reads the whole request, then resets the connection (TCP RST) either before
 * passing it on (`before`: the service never saw it) or after the service has answered
 * (`after`: the service acted, its answer is lost). Every request and the status the service
 * answered it with are recorded; a hook can act on an answer before it is relayed.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Drop = 'before' | 'after';

export interface Passed {
  method: string;
  /** Path and query. */
  path: string;
  headers: IncomingHttpHeaders;
  /** The service's answer, when the request reached it. */
  status?: number;
  /** How the connection was reset, if it was. */
  dropped?: Drop;
  /** performance.now() when the request arrived, ms. */
  at: number;
}

export interface ResettingProxy {
  url: string;
  passed: Passed[];
  /** Drops for the next requests `dropWhen` selects, first in first out. */
  drops: Drop[];
  /** Which requests a queued drop applies to. Default: every one. */
  dropWhen: (method: string, path: string) => boolean;
  /** Runs on each answer before it is relayed, e.g. to move the mock's clock on a 429. */
  onAnswer?: (answer: Response) => Promise<void> | void;
  close(): Promise<void>;
}

/** Headers that belong to one connection and are not passed on. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host', 'content-encoding']);

export async function startResettingProxy(target: string): Promise<ResettingProxy> {
  const proxy: ResettingProxy = { url: '', passed: [], drops: [], dropWhen: () => true, close: async () => {} };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const method = req.method ?? 'GET';
      const path = req.url ?? '/';
      const record: Passed = { method, path, headers: req.headers, at: performance.now() };
      proxy.passed.push(record);
      const drop = proxy.dropWhen(method, path) ? proxy.drops.shift() : undefined;
      record.dropped = drop;
      if (drop === 'before') return void req.socket.resetAndDestroy();
      const headers = Object.entries(req.headers).flatMap(([k, v]) => (HOP_BY_HOP.has(k) || v === undefined ? [] : [[k, String(v)] as [string, string]]));
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
      const answer = await fetch(`${target}${path}`, { method, headers, body, redirect: 'manual' });
      const text = Buffer.from(await answer.arrayBuffer());
      record.status = answer.status;
      if (drop === 'after') return void req.socket.resetAndDestroy();
      await proxy.onAnswer?.(answer);
      res.writeHead(answer.status, Object.fromEntries([...answer.headers].filter(([k]) => !HOP_BY_HOP.has(k))));
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return proxy;
}
