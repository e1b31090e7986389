/**
 * Reads a web stream whole, but never more than `limit` bytes and, when `timeoutMs` is given,
 * for no longer than that: the SDK's answers (core/transport.ts) and the handlers' request
 * bodies (handlers/response.ts) both come from a peer that may send without end or trickle.
 * Plain Uint8Arrays only, so that it runs where there is no Buffer (edge runtimes, Deno).
 */

/** The bytes; `'too_large'` at the first byte past `limit`, `'late'` past `timeoutMs` (the stream cancelled in both). */
export async function readLimited(stream: ReadableStream<Uint8Array>, limit: number, timeoutMs?: number): Promise<Uint8Array | 'too_large' | 'late'> {
  const reader = stream.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = timeoutMs === undefined ? undefined : new Promise<'late'>((resolve) => (timer = setTimeout(resolve, timeoutMs, 'late')));
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const next = await (late ? Promise.race([reader.read(), late]) : reader.read());
      if (next === 'late' || (!next.done && (size += next.value.byteLength) > limit)) {
        reader.cancel().catch(() => {});
        return next === 'late' ? 'late' : 'too_large';
      }
      if (next.done) break;
      chunks.push(next.value);
    }
  } finally {
    clearTimeout(timer);
  }
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}
