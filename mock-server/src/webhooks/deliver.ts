/**
 * Outbound webhooks: one delivery record per event and endpoint, attempted on the mock's
 * clock. Order and ramp payment webhooks follow 000 section 6 (attempts at 0 s, 10 s, 1 min,
 * 1 h, 4 h; exhausted after 5); checkout webhooks 002 section 6 (one attempt, 8 s timeout,
 * replayed only by an explicit retry, same event id). Every attempt is signed afresh. With the
 * `webhookHandler` option an attempt is a call of that handler instead of a network request.
 */
import { bypass } from 'msw';
import { iso } from '../clock.js';
import type { MockContext } from '../context.js';
import type { WebhookHandler } from '../options.js';
import type { DeliveryAttempt, DeliveryRecord } from '../types.js';
import { signHeaders } from './sign.js';

/** Delay before each attempt, seconds: attempt 1 at once, then after 10 s, 1 min, 1 h and 4 h. */
export const RETRY_SCHEDULE_SECONDS = [0, 10, 60, 3_600, 14_400] as const;
/** Checkout webhooks: one attempt, 8 s timeout. */
export const CHECKOUT_TIMEOUT_MS = 8_000;
/** Our choice for order and ramp payment webhooks, where the documents give none. */
export const ORDER_TIMEOUT_MS = 10_000;

export interface EnqueueInput {
  kind: DeliveryRecord['kind'];
  event: string;
  merchantId: string;
  url: string;
  payload: unknown;
  /** Reuse an event id (the same event to another endpoint). Default: a new one. */
  eventId?: string;
  /** Checkout only: the subscribed endpoint whose secret signs it. */
  endpointId?: string;
}

/** Records a delivery and schedules its first attempt for now; later attempts follow the schedule of its kind. */
export function enqueueDelivery(ctx: MockContext, input: EnqueueInput): DeliveryRecord {
  const now = ctx.clock.now();
  const delivery: DeliveryRecord = {
    id: `whd_${ctx.random.uuid()}`,
    kind: input.kind,
    event: input.event,
    event_id: input.eventId ?? `evt_${ctx.random.uuid()}`,
    merchant_id: input.merchantId,
    endpoint_id: input.endpointId ?? null,
    url: input.url,
    body: JSON.stringify(input.payload),
    attempts: [],
    state: 'pending',
    next_attempt_at: iso(now),
    created_at: iso(now),
    fired: false,
  };
  ctx.store.deliveries.set(delivery.id, delivery);
  ctx.clock.schedule(now, () => attempt(ctx, delivery.id));
  return delivery;
}

/**
 * Sends the delivery again now, as the dashboard's or the API's retry does: same event id,
 * fresh signature. Returns undefined for an unknown id.
 */
export async function retryDelivery(ctx: MockContext, id: string): Promise<DeliveryRecord | undefined> {
  const delivery = ctx.store.deliveries.get(id);
  if (!delivery) return undefined;
  await attempt(ctx, id, { manual: true });
  return delivery;
}

async function attempt(ctx: MockContext, id: string, { manual = false } = {}): Promise<void> {
  const delivery = ctx.store.deliveries.get(id);
  // A reset dropped it, or a manual retry already finished it.
  if (!delivery || (!manual && delivery.state !== 'pending')) return;
  const sentAt = ctx.clock.now();
  // A checkout endpoint removed since the event was queued is no longer subscribed, and its secret is gone: nothing is sent.
  if (delivery.kind === 'checkout' && !ctx.store.checkout.webhookEndpoints.has(delivery.endpoint_id ?? '')) {
    delivery.attempts.push({ at: iso(sentAt), manual, request: { headers: {}, body: delivery.body }, error: 'webhook endpoint removed', duration_ms: 0, next_attempt_at: null });
    if (delivery.state !== 'delivered') delivery.state = 'failed';
    delivery.next_attempt_at = null;
    return;
  }
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'sikaramp-mock-webhooks',
    ...(await signHeaders(ctx, delivery, Math.floor(sentAt / 1000))),
  };
  const record: DeliveryAttempt = {
    at: iso(sentAt),
    manual,
    request: { headers, body: delivery.body },
    duration_ms: 0,
    next_attempt_at: null,
  };
  delivery.attempts.push(record);
  const started = performance.now();
  try {
    const res = await exchange(ctx.options.webhookHandler, delivery, headers, delivery.kind === 'checkout' ? CHECKOUT_TIMEOUT_MS : ORDER_TIMEOUT_MS);
    record.status = res.status;
    record.response = res.answer;
  } catch (error) {
    record.error = describe(error);
  }
  record.duration_ms = Math.round(performance.now() - started);
  const delivered = record.status !== undefined && record.status >= 200 && record.status < 300;
  if (ctx.options.log) {
    console.log(`[sikaramp-mock] webhook ${delivery.event} -> ${delivery.url}: ${record.status ?? record.error}`);
  }
  if (delivered) {
    delivery.state = 'delivered';
    delivery.next_attempt_at = null;
    return;
  }
  // Another attempt (a retry) got through while this one was in flight: the event is delivered.
  if (delivery.state === 'delivered') return;
  if (delivery.kind === 'checkout') {
    delivery.state = 'failed';
    delivery.next_attempt_at = null;
    return;
  }
  // A manual retry of an order webhook leaves its automatic schedule as it was.
  if (manual) return;
  const scheduled = delivery.attempts.filter((a) => !a.manual).length;
  const delay = RETRY_SCHEDULE_SECONDS[scheduled];
  if (delay === undefined) {
    delivery.state = 'exhausted';
    delivery.next_attempt_at = null;
    return;
  }
  // From when this attempt was sent: a manual clock may have moved on while it was in flight.
  const at = sentAt + delay * 1000;
  delivery.next_attempt_at = record.next_attempt_at = iso(at);
  ctx.clock.schedule(at, () => attempt(ctx, id));
}

/** Largest part of a receiver's answer kept on the attempt, bytes: enough for an error message, not a page. */
export const RESPONSE_BODY_LIMIT = 4_096;

/**
 * POSTs one attempt, over the network or to the in-process `webhookHandler`, and reads the
 * answer, all of it within `timeoutMs`.
 */
async function exchange(
  handler: WebhookHandler | undefined,
  delivery: DeliveryRecord,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<{ status: number; answer: NonNullable<DeliveryAttempt['response']> }> {
  const signal = AbortSignal.timeout(timeoutMs);
  const init: RequestInit = { method: 'POST', headers, body: delivery.body, signal, redirect: 'manual' };
  const timedOut = new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
  const send = async () => {
    const res = handler
      ? await callHandler(handler, new Request(delivery.url, init))
      : // The signal goes to fetch itself too: the copy a Request makes of it can be garbage-collected, and the timeout with it.
        await fetch(bypass(delivery.url, init), { signal });
    return { status: res.status, answer: { headers: Object.fromEntries(res.headers), ...(await readCapped(res)) } };
  };
  return Promise.race([send(), timedOut]);
}

/** The handler's answer; what it throws is the attempt's failure, named as the handler's. */
async function callHandler(handler: WebhookHandler, request: Request): Promise<Response> {
  let res: unknown;
  try {
    res = await handler(request);
  } catch (error) {
    throw new Error(`webhookHandler threw: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!(res instanceof Response)) throw new Error('webhookHandler did not return a Response');
  return res;
}

/** The first RESPONSE_BODY_LIMIT bytes of the body as text; the rest is not read. */
async function readCapped(res: Response): Promise<{ body: string; truncated: boolean }> {
  if (!res.body) return { body: '', truncated: false };
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
    if (size > RESPONSE_BODY_LIMIT) {
      truncated = true;
      await reader.cancel();
      break;
    }
  }
  const bytes = new Uint8Array(Math.min(size, RESPONSE_BODY_LIMIT));
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk.subarray(0, bytes.length - offset), offset);
    offset += Math.min(chunk.byteLength, bytes.length - offset);
  }
  return { body: new TextDecoder().decode(bytes), truncated };
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    if (error.name === 'TimeoutError' || error.name === 'AbortError') return 'timed out';
    const cause = (error as { cause?: { code?: string } }).cause;
    return cause?.code ?? error.message;
  }
  return String(error);
}
