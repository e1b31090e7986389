/**
 * What the demo page shows live: verified webhooks, a ramp order's statuses, fulfilments.
 * The backend publishes here and logs the same line to the terminal; the page follows it
 * over server-sent events (`GET /api/events`).
 */
import type { Request, Response } from 'express';

export interface FeedItem {
  /** `webhook` (a verified delivery), `ramp-order` (a status waitForOrder reported), `fulfilment`. */
  kind: 'webhook' | 'ramp-order' | 'fulfilment';
  /** One readable line, as printed in the terminal. */
  text: string;
  /** The structured details the page renders. */
  data: Record<string, unknown>;
  /** ISO 8601. */
  at: string;
}

/** Items kept for a page that connects (or reconnects) later. */
const KEEP = 200;

export class Feed {
  readonly items: FeedItem[] = [];
  readonly #listeners = new Set<(item: FeedItem) => void>();
  readonly #log: (line: string) => void;

  constructor(log: (line: string) => void) {
    this.#log = log;
  }

  publish(kind: FeedItem['kind'], text: string, data: Record<string, unknown> = {}): void {
    const item: FeedItem = { kind, text, data, at: new Date().toISOString() };
    this.#log(text);
    this.items.push(item);
    if (this.items.length > KEEP) this.items.shift();
    for (const listener of this.#listeners) listener(item);
  }

  /** The server-sent events route: everything so far, then each new item. */
  stream = (req: Request, res: Response): void => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
    const send = (item: FeedItem) => res.write(`data: ${JSON.stringify(item)}\n\n`);
    for (const item of this.items) send(item);
    this.#listeners.add(send);
    req.on('close', () => this.#listeners.delete(send));
  };
}
