/**
 * `Idempotency-Key` on payment creation (002 sections 2, 4 and 8): at most 128 characters,
 * scoped to the endpoint (and, our choice, the organization of the key), remembered 24 hours
 * of clock time from first use. A repeat with the same body replays the stored answer, one
 * arriving while the first is still in flight gets 202, another body gets 409.
 */
import type { MockContext } from '../../context.js';
import { sha256Hex } from '../../crypto.js';
import { checkoutError } from './errors.js';

/** Longest accepted key, characters. */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 128;
/** How long a key is remembered from first use, seconds. */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;

/** The request's key: undefined without the header; 400 when empty or longer than 128 characters. */
export function readIdempotencyKey(request: Request): string | undefined {
  const key = request.headers.get('idempotency-key');
  if (key === null) return undefined;
  if (key.trim() === '') throw checkoutError(400, 'Idempotency-Key must not be empty');
  if (key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw checkoutError(400, `Idempotency-Key must be at most ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`);
  }
  return key;
}

export type Claim =
  /** New work: call `finish` with the answer to remember, or `abandon` when it failed and may be retried. */
  | { kind: 'new'; finish(status: number, body: Record<string, unknown>): void; abandon(): void }
  | { kind: 'replay'; status: number; body: Record<string, unknown> }
  | { kind: 'in_flight' };

/**
 * Claims `key` for a request with `body` on `endpoint`. The check and the claim happen in
 * one synchronous step, so that of N concurrent identical requests exactly one does the work.
 */
export async function claimIdempotencyKey(
  ctx: MockContext,
  scope: { endpoint: string; organizationId: string; key: string },
  body: unknown,
): Promise<Claim> {
  const fingerprint = await sha256Hex(canonicalJson(body));
  const records = ctx.store.checkout.idempotency;
  const id = `${scope.endpoint} ${scope.organizationId} ${scope.key}`;
  const now = ctx.clock.now();
  forgetExpired(records, now);
  const existing = records.get(id);
  if (existing) {
    if (existing.fingerprint !== fingerprint) {
      throw checkoutError(409, 'Idempotency-Key was already used with a different request body');
    }
    return existing.response ? { kind: 'replay', ...existing.response } : { kind: 'in_flight' };
  }
  const record = { fingerprint, expires_at: now + IDEMPOTENCY_TTL_SECONDS * 1000 };
  records.set(id, record);
  return {
    kind: 'new',
    finish: (status, responseBody) => {
      if (records.get(id) === record) records.set(id, { ...record, response: { status, body: responseBody } });
    },
    abandon: () => {
      if (records.get(id) === record) records.delete(id);
    },
  };
}

/**
 * Drops the keys whose 24 hours are over, so that a long-running mock does not keep every key it
 * ever saw. Every key lives the same time and a Map keeps first insertion order (a finished
 * answer replaces its record in place), so the expired ones are at the front.
 */
function forgetExpired(records: Map<string, { expires_at: number }>, now: number): void {
  for (const [id, record] of records) {
    if (record.expires_at > now) return;
    records.delete(id);
  }
}

/** JSON with object keys sorted at every level, so that key order does not make two bodies differ. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}
