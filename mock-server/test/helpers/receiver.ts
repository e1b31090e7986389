/** A merchant's webhook endpoint: a real node:http server on 127.0.0.1 that records every request and answers as told. */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  /** The raw body, exactly as sent. */
  body: string;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Status to answer for each next request, in order; afterwards `status`. */
  script: number[];
  /** Status answered once the script has run out. */
  status: number;
  close(): Promise<void>;
}

export async function startReceiver(status = 200): Promise<Receiver> {
  const receiver: Receiver = { url: '', received: [], script: [], status, close: async () => {} };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      receiver.received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(receiver.script.shift() ?? receiver.status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  // Idempotent, so that a test may close it early (a refused connection) and cleanup still runs.
  receiver.close = () =>
    new Promise<void>((resolve) => {
      if (!server.listening) return resolve();
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return receiver;
}
