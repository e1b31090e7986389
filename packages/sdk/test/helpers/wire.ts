/** A fetch for the client suites that records what left and can lose an answer after the service handled the request. */

export interface WireRequest {
  method: string;
  /** Path and query. */
  path: string;
  headers: Headers;
  body: string | undefined;
}

/**
 * How the next attempts lose their answer after the service has handled the request:
 * `reject` (the connection drops before the answer arrives) or `truncate` (it drops while
 * the body is read).
 */
export type Fault = 'reject' | 'truncate';

export interface Wire {
  fetch: typeof fetch;
  requests: WireRequest[];
  /** Faults applied to the next attempts, first in first out. */
  faults: Fault[];
}

/** A fetch that records each request and applies the queued faults, for counting what left and provoking drops. */
export function wireFetch(): Wire {
  const wire: Wire = {
    requests: [],
    faults: [],
    fetch: async (input, init) => {
      const request = new Request(input, init);
      const url = new URL(request.url);
      const body = request.body ? await request.clone().text() : undefined;
      wire.requests.push({ method: request.method, path: url.pathname + url.search, headers: request.headers, body });
      const response = await fetch(request);
      const fault = wire.faults.shift();
      if (fault === 'reject') {
        await response.body?.cancel();
        throw new TypeError('fetch failed');
      }
      if (fault === 'truncate') {
        const head = (await response.text()).slice(0, 8);
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode(head));
            controller.error(new TypeError('terminated'));
          },
        });
        return new Response(body, { status: response.status, headers: response.headers });
      }
      return response;
    },
  };
  return wire;
}
