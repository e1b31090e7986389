/**
 * Cursor pagination over real HTTP on 127.0.0.1, against a service whose cursors misbehave: a
 * page that names its own cursor again, or a cycle of cursors, must end the walk with a typed
 * error, never an endless loop that yields the same items again and again (a merchant's
 * reconciliation would process the same orders for ever).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HttpCore } from '../src/core/http.js';
import { PagePromise, type CursorPageBody } from '../src/core/pagination.js';
import { ResponseValidationError } from '../src/index.js';
import { json, startTestServer, type TestServer } from './helpers/http-server.js';

/** Each cursor's page: its items and the cursor it names next. */
const pages: Record<string, Record<string, [number[], string | null]>> = {
  good: { '': [[1, 2], 'a'], a: [[3], 'b'], b: [[4], null] },
  'self-repeat': { '': [[1, 2], 'a'], a: [[3], 'a'] },
  cycle: { '': [[1], 'a'], a: [[2], 'b'], b: [[3], 'a'] },
};

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    const [data, next] = pages[url.pathname.slice(1)]![url.searchParams.get('cursor') ?? '']!;
    json(res, 200, { data, next_cursor: next, has_more: next !== null });
  });
});
afterAll(() => server.close());

const Page = z.object({ data: z.array(z.number()), next_cursor: z.string().nullable(), has_more: z.boolean() });
const list = (name: string) => {
  const core = new HttpCore({ baseUrl: server.url, maxRetries: 0 });
  return new PagePromise<number>((cursor) => core.get(name, { schema: Page, unwrap: false, query: { cursor } }) as Promise<CursorPageBody<number>>);
};

describe('cursor pagination', () => {
  it('walks every page once', async () => {
    const items: number[] = [];
    for await (const item of list('good')) items.push(item);
    expect(items).toEqual([1, 2, 3, 4]);
  });

  it.each([
    ['self-repeat', [1, 2, 3], 2],
    ['cycle', [1, 2, 3], 3],
  ])('stops a walk whose cursors repeat (%s) with ResponseValidationError, after each page once', async (name, seen, requests) => {
    const before = server.requests.length;
    const items: number[] = [];
    const walk = (async () => {
      for await (const item of list(name)) items.push(item);
    })();
    await expect(walk).rejects.toBeInstanceOf(ResponseValidationError);
    expect(items).toEqual(seen);
    expect(server.requests.length - before).toBe(requests);
  });

  it('refuses getNextPage() on a page that names its own cursor as the next one', async () => {
    const first = await list('self-repeat');
    const second = await first.getNextPage();
    expect(second.data).toEqual([3]);
    await expect(second.getNextPage()).rejects.toBeInstanceOf(ResponseValidationError);
  });
});
