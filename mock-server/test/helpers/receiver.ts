/** A real webhook receiver on 127.0.0.1 that records every request and answers as told. */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Status to answer for each next request, in order; afterwards `fallback`. */
  script: number[];
  fallback: number;
  close(): Promise<void>;
}

export async function startReceiver(fallback = 200): Promise<Receiver> {
  const receiver: Receiver = { url: '', received: [], script: [], fallback, close: async () => {} };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      receiver.received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(receiver.script.shift() ?? receiver.fallback).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  receiver.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}
