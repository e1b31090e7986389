/**
 * Cursor pagination: `list()` returns a PagePromise, which is both a promise of the first
 * page and an async iterable over every item of every page.
 *
 * ```ts
 * for await (const order of merchant.orders.list({ limit: 50 })) { … }   // every order
 * let page = await merchant.orders.list();                              // one page at a time
 * while (page.hasNextPage()) page = await page.getNextPage();
 * ```
 */

import { ResponseValidationError, SikarampError } from './errors.js';

/** One page as the service sends it: items, the cursor of the next page, and whether one follows. */
export interface CursorPageBody<T> {
  data: T[];
  next_cursor: string | null;
  has_more: boolean;
}

/** Fetches the page that starts after `cursor` (the first page when undefined). */
export type PageFetcher<T> = (cursor: string | undefined) => Promise<CursorPageBody<T>>;

export class CursorPage<T> implements AsyncIterable<T> {
  /** The items of this page. */
  readonly data: T[];
  /** Cursor of the next page, or null. */
  readonly next_cursor: string | null;
  /** Whether another page follows. */
  readonly has_more: boolean;
  readonly #fetch: PageFetcher<T>;
  /** The cursor this page was fetched with; undefined for the first page. */
  readonly #cursor: string | undefined;

  constructor(body: CursorPageBody<T>, fetch: PageFetcher<T>, cursor?: string) {
    this.data = body.data;
    this.next_cursor = body.next_cursor;
    this.has_more = body.has_more;
    this.#fetch = fetch;
    this.#cursor = cursor;
  }

  hasNextPage(): boolean {
    return this.has_more && this.next_cursor !== null && this.next_cursor !== '';
  }

  /** Fetches the page after this one; throws when there is none (check hasNextPage()). */
  async getNextPage(): Promise<CursorPage<T>> {
    if (!this.hasNextPage()) throw new SikarampError('There is no next page: check hasNextPage() first');
    if (this.next_cursor === this.#cursor) throw this.#repeated();
    return new CursorPage(await this.#fetch(this.next_cursor!), this.#fetch, this.next_cursor!);
  }

  /** This page and every page after it; a cursor met twice ends the walk with ResponseValidationError rather than loop for ever. */
  async *iterPages(): AsyncGenerator<CursorPage<T>> {
    let page: CursorPage<T> = this;
    const walked = new Set<string>();
    yield page;
    while (page.hasNextPage()) {
      if (walked.has(page.next_cursor!)) throw page.#repeated();
      walked.add(page.next_cursor!);
      page = await page.getNextPage();
      yield page;
    }
  }

  #repeated(): ResponseValidationError {
    const body = { data: this.data, next_cursor: this.next_cursor, has_more: this.has_more };
    return new ResponseValidationError([{ path: ['next_cursor'], message: 'names a page already read: stopped rather than read it again' }], body, new Headers());
  }

  /** Every item of this page and of every page after it. */
  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    for await (const page of this.iterPages()) yield* page.data;
  }
}

/** A promise of the first page that is also an async iterable over all items. The first request is sent when awaited or iterated. */
export class PagePromise<T> implements PromiseLike<CursorPage<T>>, AsyncIterable<T> {
  readonly #fetch: PageFetcher<T>;
  #first: Promise<CursorPage<T>> | undefined;

  /** `fetch(undefined)` fetches the first page, `fetch(cursor)` the page after `cursor`. */
  constructor(fetch: PageFetcher<T>) {
    this.#fetch = fetch;
  }

  #page(): Promise<CursorPage<T>> {
    this.#first ??= this.#fetch(undefined).then((body) => new CursorPage(body, this.#fetch));
    return this.#first;
  }

  then<A = CursorPage<T>, B = never>(
    onFulfilled?: ((page: CursorPage<T>) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#page().then(onFulfilled, onRejected);
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    yield* await this.#page();
  }
}
