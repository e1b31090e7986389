/**
 * Which window the interactive page may talk to. The page reports status with
 * `postMessage(message, targetOrigin)`; a wrong target would hand the transaction to whatever
 * page framed or opened it, so the target is chosen on the server, from what the merchant
 * allowed, and `*` is never used.
 *
 * The allowed origins are the transaction's `embed_origins`: the `allowed_domains` of the
 * public key the merchant sent with the interactive request. The origin asked for is the
 * `origin` query parameter (the widget appends its page's origin) or, without it, the origin
 * of the `Referer` the browser sent when it loaded the page in the frame or popup.
 *   - Allowed origins set: the asked-for origin if it is one of them; else, when there is
 *     exactly one, that one (the browser delivers nothing unless the embedder really is it);
 *     else none, and the page sends no messages.
 *   - No allowed origins (an unrestricted key, or a test-network anchor client without a
 *     key): the asked-for origin, which only someone holding the token's URL can choose.
 * The same list becomes the page's CSP `frame-ancestors`, so only allowed sites can frame it.
 */

/** `scheme://host[:port]` of an http(s) URL or origin, or undefined if it is not one. */
export function toOrigin(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value.trim());
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/** The allowed origins in canonical form; entries that are not http(s) origins are dropped. */
export function allowedOrigins(list: readonly string[]): string[] {
  return [...new Set(list.map(toOrigin).filter((o): o is string => o !== undefined))];
}

/** The origin status messages go to, or null for none. See the module comment for the rules. */
export function targetOrigin(allowed: readonly string[], asked: { query: string | null; referer: string | null }): string | null {
  const wanted = toOrigin(asked.query) ?? toOrigin(asked.referer);
  if (allowed.length === 0) return wanted ?? null;
  if (wanted && allowed.includes(wanted)) return wanted;
  return allowed.length === 1 ? allowed[0]! : null;
}

/** CSP `frame-ancestors`: the allowed origins, or any page when the key is not restricted. */
export function frameAncestors(allowed: readonly string[]): string {
  return allowed.length === 0 ? '*' : allowed.join(' ');
}
