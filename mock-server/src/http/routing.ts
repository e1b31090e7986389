/**
 * Which of the backend's msw handlers could answer a request, so that the standalone server
 * hands msw a few of them instead of all of them: msw parses the URL against every handler
 * it is given, in order, and that dominated the server's CPU time. The answer keeps the
 * handlers' order and only ever drops handlers that cannot match, so msw still decides and
 * the response is the one the whole list would give.
 */
import type { RequestHandler } from 'msw';

/** Leading path segments a request is sorted by: `api/v1/developer/payments`. */
const KEY_SEGMENTS = 4;

/** Distinct request keys remembered; beyond it the memory starts over (ids in paths vary). */
const MAX_KEYS = 1024;

/** Characters where a handler pattern stops being plain text (params, wildcards, escapes, groups, query). */
const PATTERN_SYNTAX = /[*:\\[\]?#|%{}()+]/;

interface Indexed {
  handler: RequestHandler;
  /** Upper-case method, or undefined when any method might match (`http.all`, a RegExp). */
  method: string | undefined;
  /** Whole literal leading segments of the path (at most KEY_SEGMENTS); undefined when the pattern is not a path under `origin`. */
  segments: string[] | undefined;
}

export interface HandlerIndex {
  /** The handlers that could answer `method url`, in their original order (not to be changed). */
  candidates(method: string, url: URL): RequestHandler[];
}

/** Indexes `handlers`, which match URLs under `origin`, once; the array must not change afterwards. */
export function indexHandlers(handlers: RequestHandler[], origin: string): HandlerIndex {
  const indexed = handlers.map((handler): Indexed => {
    const { method, path } = handler.info as { method?: unknown; path?: unknown };
    return {
      handler,
      method: typeof method === 'string' ? method.toUpperCase() : undefined,
      segments: typeof path === 'string' && path.startsWith(`${origin}/`) ? literalSegments(path.slice(origin.length)) : undefined,
    };
  });
  const byKey = new Map<string, RequestHandler[]>();
  return {
    candidates(method, url) {
      // msw decodes percent-escapes before comparing, and other origins are not indexed: the whole list decides those.
      if (url.origin !== origin || url.pathname.includes('%')) return handlers;
      const upper = method.toUpperCase();
      const key = `${upper} ${leading(url.pathname)}`;
      let found = byKey.get(key);
      if (!found) {
        const segments = leading(url.pathname).slice(1).split('/');
        found = indexed.filter((h) => (h.method === undefined || h.method === upper) && mayMatch(h.segments, segments)).map((h) => h.handler);
        if (byKey.size >= MAX_KEYS) byKey.clear();
        byKey.set(key, found);
      }
      return found;
    },
  };
}

/**
 * The path segments a pattern fixes before its first param, wildcard or other syntax. A
 * pattern of plain text fixes all of them, its last one included.
 */
function literalSegments(path: string): string[] {
  const syntax = path.search(PATTERN_SYNTAX);
  const plain = syntax < 0 ? path : path.slice(0, syntax);
  const parts = plain.slice(1).split('/');
  // The text after the last slash is a whole segment only when the pattern ends there.
  if (syntax >= 0) parts.pop();
  return parts.slice(0, KEY_SEGMENTS);
}

/** The path up to the end of its KEY_SEGMENTS-th segment: `/a/b/` stays `/a/b/` (segments `a`, `b`, ``). */
function leading(pathname: string): string {
  let end = 0;
  for (let i = 0; i < KEY_SEGMENTS; i++) {
    end = pathname.indexOf('/', end + 1);
    if (end < 0) return pathname;
  }
  return pathname.slice(0, end);
}

/**
 * Whether a handler fixing `fixed` segments may match a request starting with `given`. Only
 * the segments both have are compared: a request shorter than the pattern may still match
 * through msw's tolerance of a trailing slash or an optional param, and msw rules on those.
 */
function mayMatch(fixed: string[] | undefined, given: string[]): boolean {
  if (fixed === undefined) return true;
  const n = Math.min(fixed.length, given.length);
  for (let i = 0; i < n; i++) if (fixed[i] !== given[i]) return false;
  return true;
}
