/**
 * A merchant's webhook endpoint on 127.0.0.1 that can misbehave on demand: answer any
 * status, reset the connection, or never answer. Every request is kept with its raw body,
 * and signatures are checked here with node:crypto, independently of the mock.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Hit {
  headers: IncomingHttpHeaders;
  /** The raw body, exactly as sent. */
  body: string;
  /** Held requests: how long the sender waited before giving up, ms of real time. */
  abandonedAfterMs?: number;
  /** Held requests: when the sender gave up, as `performance.now()`. */
  closedAt?: number;
}

/** What the endpoint does with the next requests: answer a status, drop the connection, or hold it open unanswered. */
export type Behaviour = number | 'reset' | 'hang';

export interface HookEndpoint {
  url: string;
  hits: Hit[];
  behaviour: Behaviour;
  /** Held (unanswered) requests, to release or drop later. */
  held: ServerResponse[];
  /** Stops listening: connections are refused until `up()`. */
  down(): Promise<void>;
  /** Listens again on the same port. */
  up(): Promise<void>;
  close(): Promise<void>;
}

export async function startHookEndpoint(): Promise<HookEndpoint> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const hit: Hit = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      endpoint.hits.push(hit);
      const { behaviour } = endpoint;
      if (behaviour === 'reset') return void req.socket.destroy();
      if (typeof behaviour === 'number') return void res.writeHead(behaviour).end();
      const since = performance.now();
      res.on('close', () => {
        hit.closedAt = performance.now();
        hit.abandonedAfterMs = hit.closedAt - since;
      });
      endpoint.held.push(res);
    });
  });
  server.keepAliveTimeout = 1_000;
  const listen = (port: number) => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const stop = () =>
    new Promise<void>((resolve) => {
      if (!server.listening) return resolve();
      server.close(() => resolve());
      server.closeAllConnections();
    });
  await listen(0);
  const { port } = server.address() as AddressInfo;
  const endpoint: HookEndpoint = {
    url: `http://127.0.0.1:${port}/hooks`,
    hits: [],
    behaviour: 200,
    held: [],
    down: stop,
    up: () => listen(port),
    close: stop,
  };
  return endpoint;
}

const hex = (secret: string, content: string) => createHmac('sha256', secret).update(content).digest('hex');
const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** Order and ramp payment webhooks: `X-Webhook-Signature` is the hex HMAC-SHA256 of the raw body with one of `secrets`. */
export function orderSignatureValid(hit: Hit, secrets: readonly string[]): boolean {
  const signature = String(hit.headers['x-webhook-signature'] ?? '');
  return secrets.some((s) => same(signature, hex(s, hit.body)));
}

/** Checkout webhooks: `X-Svc-Signature` is `v1=` + hex HMAC-SHA256 of `<X-Svc-Timestamp>.<raw body>` with the endpoint secret. */
export function checkoutSignatureValid(hit: Hit, secret: string): boolean {
  const signature = String(hit.headers['x-svc-signature'] ?? '');
  return same(signature, `v1=${hex(secret, `${String(hit.headers['x-svc-timestamp'])}.${hit.body}`)}`);
}
