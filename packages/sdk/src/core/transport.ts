/**
 * The transport on Node when the client has no `fetch` of its own: node:http and node:https
 * (their global keep-alive agents), as stripe-node's NodeHttpClient. Node's own fetch (undici)
 * spends about twice the CPU of node:http on a small JSON call, in WHATWG streams and
 * Request/Response objects that the SDK, which reads each answer whole, does not need. Bun,
 * Deno, edge runtimes and browsers keep the platform's fetch (see core/http.ts).
 *
 * What a call sees is what fetch gives it: a Response (its body read whole, given beside it by
 * readText rather than as a stream), a redirect answered and never followed,
 * gzip, deflate and brotli answers decoded, a network failure a `TypeError('fetch failed')`
 * with its cause, the caller's signal honoured (rejecting with its reason). The deadline is
 * kept here, on the whole exchange (the answer is read in full before the Response is made),
 * so that a call pays for no AbortController of its own.
 *
 * Unlike fetch, an answer is read only up to {@link MAX_RESPONSE_BYTES}, decompressed, on every
 * path (readText bounds a fetch's answer too): past it the call fails with ResponseTooLargeError
 * and the connection is closed, so that a gzip bomb or a body that never ends costs no more memory.
 *
 * A kept-alive connection is closed before the server's `Keep-Alive: timeout` runs out (Node's
 * agent reads the hint), as undici does; a request that meets a closed one anyway fails as a
 * ConnectionError, which the core retries where retrying is safe.
 *
 * The modules come from `process.getBuiltinModule`, which bundlers do not follow, so that a
 * browser or edge build of the SDK never names node:http.
 */
import type * as Http from 'node:http';
import type * as Https from 'node:https';
import type * as Zlib from 'node:zlib';
import { ResponseTooLargeError, TimeoutError } from './errors.js';
import { readLimited } from './read-limited.js';

/**
 * Sends one request and resolves its whole answer, its text put in `read.text` first; rejects with
 * TimeoutError after `timeoutMs`. `init.signal` is the caller's own, if any.
 */
export type NodeTransport = (url: string, init: RequestInit, timeoutMs: number, read: { text?: string }) => Promise<Response>;

interface NodeModules {
  http: typeof Http;
  https: typeof Https;
  zlib: typeof Zlib;
}

/** Node itself, not Bun, Deno or a worker that imitates parts of it (each says its name in `navigator.userAgent`). */
function nodeModules(): NodeModules | undefined {
  const get = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule;
  if (typeof get !== 'function' || !globalThis.navigator?.userAgent?.startsWith('Node.js/')) return undefined;
  return { http: get('node:http') as typeof Http, https: get('node:https') as typeof Https, zlib: get('node:zlib') as typeof Zlib };
}

const node = nodeModules();

/** Undefined where Node is not the runtime. */
export const nodeTransport: NodeTransport | undefined = node && ((url, init, timeoutMs, read) => nodeFetch(node, url, init, timeoutMs, read));

/** The most the SDK reads of one answer, bytes, after decompression: 16 MiB, over a hundred times its largest page. */
export const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

const decoder = new TextDecoder();

/** A fetch's answer as text, read no further than MAX_RESPONSE_BYTES (its Content-Length, or the bytes as they come). */
export async function readText(response: Response): Promise<string> {
  const { body } = response;
  if (!body) return '';
  // A fetch whose body is a Node stream (node-fetch 2) can only be read whole, then measured.
  if (typeof body.getReader !== 'function') {
    const text = await response.text();
    if (text.length > MAX_RESPONSE_BYTES) throw new ResponseTooLargeError(MAX_RESPONSE_BYTES);
    return text;
  }
  // A compressed answer's length is that of its bytes on the wire, never more than they decode to.
  if (Number(response.headers.get('content-length')) > MAX_RESPONSE_BYTES) {
    body.cancel().catch(() => undefined);
    throw new ResponseTooLargeError(MAX_RESPONSE_BYTES);
  }
  const bytes = await readLimited(body, MAX_RESPONSE_BYTES);
  if (typeof bytes === 'string') throw new ResponseTooLargeError(MAX_RESPONSE_BYTES);
  return decoder.decode(bytes);
}

/** Statuses whose answer has no body. */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

function nodeFetch({ http, https, zlib }: NodeModules, url: string, init: RequestInit, timeoutMs: number, read: { text?: string }): Promise<Response> {
  const { signal } = init;
  const method = init.method ?? 'GET';
  const body = init.body as string | undefined;
  const headers: Record<string, string> = { 'accept-encoding': 'gzip, deflate, br' };
  // Lowercase, as a Headers would make them: one line per name, the last value given winning.
  if (init.headers instanceof Headers) init.headers.forEach((value, name) => (headers[name] = value));
  else for (const [name, value] of Object.entries(init.headers as Record<string, string>)) headers[name.toLowerCase()] = value;
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    let timedOut = false;
    const deadline = setTimeout(() => {
      timedOut = true;
      request.destroy();
      // Settled here, not by an 'error' that a request whose socket is already gone never emits.
      fail(undefined);
    }, timeoutMs);
    const settle = <T>(done: (value: T) => void) => (value: T) => {
      clearTimeout(deadline);
      done(value);
    };
    resolve = settle(resolve);
    reject = settle(reject);
    const fail = (error: unknown) =>
      reject(signal?.aborted ? signal.reason : timedOut ? new TimeoutError(timeoutMs) : new TypeError('fetch failed', { cause: error }));
    // Called through the module, not a copy of `request`: test tools (msw, nock) replace it there.
    const request = (url.startsWith('https:') ? https : http).request(url, { method, headers, signal: signal ?? undefined }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        if ((size += chunk.length) <= MAX_RESPONSE_BYTES) return void chunks.push(chunk);
        reject(new ResponseTooLargeError(MAX_RESPONSE_BYTES));
        request.destroy();
      });
      res.on('error', fail);
      res.on('end', () => {
        try {
          const status = res.statusCode!;
          // The Response carries status and headers; its text goes beside it (`read`), read whole already:
          // a body stream that the SDK would only drain at once was most of a Response's cost.
          const response = new Response(null, { status: status > 599 ? 599 : status, statusText: res.statusMessage });
          // Response refuses a status past 599 that fetch still gives (999, as some firewalls answer): the status as sent, never ok.
          if (status > 599) Object.defineProperties(response, { status: { value: status }, ok: { value: false } });
          // Added to the Response's own Headers, not copied in from another; read from the raw lines,
          // so that Node never builds its `res.headers` object.
          const { headers: answer } = response;
          const raw = res.rawHeaders;
          let encoding: string | undefined;
          for (let i = 0; i < raw.length; i += 2) {
            answer.append(raw[i]!, raw[i + 1]!);
            if (raw[i]!.length === 16 && raw[i]!.toLowerCase() === 'content-encoding') encoding = encoding ? `${encoding}, ${raw[i + 1]}` : raw[i + 1];
          }
          const bytes = NULL_BODY.has(status) ? undefined : decode(zlib, encoding, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
          read.text = bytes === undefined ? '' : decoder.decode(bytes);
          resolve(response);
        } catch (error) {
          if ((error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE') reject(new ResponseTooLargeError(MAX_RESPONSE_BYTES));
          else fail(error);
        }
      });
    });
    request.on('error', fail);
    // A 101 nobody asked for: Node hands the socket over and says nothing more about the request.
    request.on('upgrade', (_res, socket: { destroy(): void }) => {
      socket.destroy();
      fail(new Error(`unexpected ${_res.statusCode} ${_res.statusMessage}`));
    });
    request.end(body);
  });
}

/** Inflating stops past the limit (ERR_BUFFER_TOO_LARGE), never holding more. */
const bounded = { maxOutputLength: MAX_RESPONSE_BYTES };

/** The body as sent, decoded as fetch decodes it, up to MAX_RESPONSE_BYTES. */
function decode(zlib: typeof Zlib, encoding: string | undefined, bytes: Buffer): Buffer {
  // An empty body labelled deflate or br is no body to fetch; zlib would call it a truncated stream.
  if (bytes.length === 0 || !encoding) return bytes;
  // Codings are listed in the order they were applied (`gzip, br`): undone last first.
  if (encoding.includes(',')) return encoding.split(',').reduceRight((body, coding) => decodeOne(zlib, coding, body), bytes);
  return decodeOne(zlib, encoding, bytes);
}

function decodeOne(zlib: typeof Zlib, encoding: string, bytes: Buffer): Buffer {
  switch (encoding.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return zlib.gunzipSync(bytes, { finishFlush: zlib.constants.Z_SYNC_FLUSH, maxOutputLength: MAX_RESPONSE_BYTES });
    case 'deflate':
      // Some servers send raw deflate under this name; the zlib header says which.
      return (bytes[0]! & 0x0f) === 8 ? zlib.inflateSync(bytes, bounded) : zlib.inflateRawSync(bytes, bounded);
    case 'br':
      return zlib.brotliDecompressSync(bytes, bounded);
    default:
      return bytes;
  }
}
