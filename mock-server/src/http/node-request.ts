/**
 * The request the standalone server hands a resolver `route()` made, in place of a WHATWG
 * Request: those resolvers read only its method, URL, headers and body, and building a
 * Request (Headers, a body stream, a copy of the bytes) made most of the garbage of a
 * request, whose collection pauses showed in the server's latency. It has the members the
 * resolvers use; `formData` (SEP forms) goes through a real Request built on demand.
 */
import { CLIENT_IP_HEADER } from './auth.js';

const decoder = new TextDecoder();

const isHttpWhitespace = (code: number) => code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;

/** The value without HTTP whitespace at either end, as `Headers` keeps it. */
function trimHttp(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isHttpWhitespace(text.charCodeAt(start))) start++;
  while (end > start && isHttpWhitespace(text.charCodeAt(end - 1))) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

/** The read side of `Headers` over node's parsed headers, with the client IP header the server sets. */
export class NodeHeaders {
  constructor(
    /** node's `req.headers`: lower-case names, repeated ones joined but for set-cookie. */
    readonly raw: Readonly<Record<string, string | string[] | undefined>>,
    readonly clientIp: string,
  ) {}

  get(name: string): string | null {
    const key = name.toLowerCase();
    if (key === CLIENT_IP_HEADER) return this.clientIp;
    const value = this.raw[key];
    if (value === undefined) return null;
    // As `Headers` joins values appended one by one (node gives only set-cookie as a list).
    return typeof value === 'string' ? trimHttp(value) : value.map(trimHttp).join(', ');
  }

  has(name: string): boolean {
    return this.get(name) !== null;
  }

  /** The headers as a fetch `Headers` (for a real Request), the client IP header replaced. */
  toHeaders(): Headers {
    const headers = new Headers();
    for (const name of Object.keys(this.raw)) {
      const value = this.raw[name];
      if (value === undefined || name === CLIENT_IP_HEADER) continue;
      if (typeof value === 'string') headers.append(name, value);
      else for (const v of value) headers.append(name, v);
    }
    headers.set(CLIENT_IP_HEADER, this.clientIp);
    return headers;
  }
}

export class NodeRequest {
  #bodyUsed = false;

  constructor(
    readonly method: string,
    readonly url: string,
    readonly headers: NodeHeaders,
    /** The body as read from the socket; undefined or empty for none. */
    readonly bytes: Uint8Array | undefined,
  ) {}

  get bodyUsed(): boolean {
    return this.#bodyUsed;
  }

  /** The body's bytes, once, as a Request gives them (a second read is a TypeError). */
  #consume(): Uint8Array {
    if (this.#bodyUsed) throw new TypeError('Body is unusable: Body has already been read');
    this.#bodyUsed = true;
    return this.bytes ?? new Uint8Array(0);
  }

  /** UTF-8 with a leading BOM dropped and bad bytes replaced, as `Request.text()` decodes. */
  async text(): Promise<string> {
    return decoder.decode(this.#consume());
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = this.#consume();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  async formData(): Promise<FormData> {
    this.#consume();
    return this.toRequest().formData();
  }

  clone(): NodeRequest {
    if (this.#bodyUsed) throw new TypeError('Request.clone: Body has already been consumed.');
    return new NodeRequest(this.method, this.url, this.headers, this.bytes);
  }

  /** The same request as a WHATWG Request, for msw and handlers of other kinds. */
  toRequest(): Request {
    const body = this.bytes && this.bytes.length > 0 ? new Uint8Array(this.bytes) : undefined;
    return new Request(this.url, { method: this.method, headers: this.headers.toHeaders(), body });
  }
}
