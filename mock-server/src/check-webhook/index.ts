/**
 * `sikaramp-mock check-webhook`: sends a merchant's webhook endpoint the deliveries a correct
 * receiver must accept and those it must refuse, and reports each answer against what it
 * should be. An answer is accepted when 2xx and refused otherwise; a network error is neither.
 * With `handledUrl` (a GET answering a JSON array of the events the endpoint has handled), it
 * also checks what status codes cannot show: each event handled once, and before the 2xx.
 */
import { makeEvent, signFor, type CheckEvent, type CheckKind } from './deliveries.js';

export type { CheckKind } from './deliveries.js';

export interface CheckWebhookOptions {
  /** The endpoint, e.g. `http://127.0.0.1:3000/webhooks/sikaramp`. */
  url: string;
  /** Its signing secret: the merchant's webhook secret, or the checkout endpoint's. */
  secret: string;
  /** `order` (order and ramp payment webhooks, the default) or `checkout`. */
  kind?: CheckKind;
  /** A GET URL answering the JSON array of the events the endpoint handled (any shape that contains each event's id). */
  handledUrl?: string;
  /** The endpoint's timestamp tolerance, seconds; stale and future deliveries are dated 5 minutes beyond it. Default 300. */
  tolerance?: number;
  /** Per request, ms. Default 10 000 (the service's own time-out). */
  timeoutMs?: number;
  /** How many identical deliveries are sent at once in the concurrency case. Default 5. */
  concurrency?: number;
  fetch?: typeof fetch;
}

export interface CheckRow {
  name: string;
  expected: string;
  got: string;
  /** undefined: not checked (no `handledUrl`, or what it builds on failed). */
  ok: boolean | undefined;
  /** What a miss means and what to change; empty when ok. */
  advice: string;
}

export interface CheckReport {
  url: string;
  kind: CheckKind;
  rows: CheckRow[];
  missed: number;
  unchecked: number;
}

interface Answer {
  status?: number;
  error?: string;
}

const accepted = (a: Answer) => a.status !== undefined && a.status >= 200 && a.status < 300;
const refused = (a: Answer) => a.status !== undefined && !accepted(a);
const shown = (a: Answer) => (a.status === undefined ? `error: ${a.error}` : String(a.status));

export async function checkWebhook(options: CheckWebhookOptions): Promise<CheckReport> {
  const kind = options.kind ?? 'order';
  const tolerance = options.tolerance ?? 300;
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const run = crypto.randomUUID().slice(0, 8);
  let count = 0;
  const next = (extra?: Parameters<typeof makeEvent>[4]) => makeEvent(kind, run, String(++count), Date.now(), extra);
  const seconds = () => Math.floor(Date.now() / 1000);
  const rows: CheckRow[] = [];
  const push = (row: CheckRow) => rows.push(row.ok === false ? row : { ...row, advice: '' });

  async function post(body: string, headers: Record<string, string>): Promise<Answer> {
    try {
      const res = await doFetch(options.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'sikaramp-mock-check-webhook', ...headers },
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      });
      await res.body?.cancel();
      return { status: res.status };
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause;
      return { error: cause?.code ?? (error as Error).message };
    }
  }

  /** Sends the event, signed right unless the options say how not. */
  async function deliver(
    event: CheckEvent,
    how: { raw?: string; signed?: string; timestamp?: number; secret?: string; headers?: (h: Record<string, string>) => Record<string, string> } = {},
  ): Promise<Answer> {
    const raw = how.raw ?? JSON.stringify(event.body);
    const headers = await signFor(kind, raw, { secret: how.secret ?? options.secret, timestamp: how.timestamp ?? seconds(), signed: how.signed ?? raw });
    return post(raw, how.headers ? how.headers(headers) : headers);
  }

  /** How many times the endpoint says it handled the event; undefined without `handledUrl`. */
  async function handled(event: CheckEvent): Promise<number | undefined> {
    if (!options.handledUrl) return undefined;
    const res = await doFetch(options.handledUrl, { signal: AbortSignal.timeout(options.timeoutMs ?? 10_000) });
    if (!res.ok) throw new Error(`--handled-url answered ${res.status}`);
    const list: unknown = await res.json();
    if (!Array.isArray(list)) throw new TypeError(`--handled-url must answer a JSON array, got ${JSON.stringify(list).slice(0, 80)}`);
    return list.filter((item) => JSON.stringify(item).includes(event.marker)).length;
  }

  const noAnswer = (answers: Answer[]) => answers.find((a) => a.status === undefined);
  const expectAnswer = (name: string, want: 'accept' | 'refuse', answer: Answer, advice: string) => {
    const ok = want === 'accept' ? accepted(answer) : refused(answer);
    push({ name, expected: want, got: shown(answer), ok, advice: answer.status === undefined ? `no answer (${answer.error})` : advice });
  };

  const expectHandled = async (name: string, event: CheckEvent, checkable: boolean, advice: (times: number) => string) => {
    const times = checkable ? await handled(event) : undefined;
    if (times === undefined) {
      push({ name, expected: 'handled once', got: checkable ? 'not checked (no --handled-url)' : 'not checked', ok: undefined, advice: '' });
      return;
    }
    push({ name, expected: 'handled once', got: `handled ${times}×`, ok: times === 1, advice: advice(times) });
  };

  // 1. A correct delivery, and whether it was handled by the time the endpoint acknowledged it.
  const valid = next();
  const validRaw = JSON.stringify(valid.body);
  const first = await deliver(valid);
  // Nothing else can be judged when the endpoint cannot be reached at all.
  if (first.status === undefined) throw new Error(`could not reach ${options.url}: ${first.error}`);
  expectAnswer('valid delivery', 'accept', first, 'refuses a correct delivery: check the secret, and verify the raw body as received');
  await expectHandled('handled before the 2xx', valid, accepted(first), (times) =>
    times === 0 ? 'answered 2xx before handling the event: if handling then fails, the service does not retry it' : 'handled the event more than once',
  );

  // 2. Deliveries that a receiver must refuse.
  const tamperedEvent = next();
  const original = JSON.stringify(tamperedEvent.body);
  expectAnswer(
    'tampered body',
    'refuse',
    await deliver(tamperedEvent, { raw: original.replace(/"100\.00"|10000/, (m) => (m === '10000' ? '1' : '"1000.00"')), signed: original }),
    'accepts a body changed after signing: verify the signature before acting',
  );
  expectAnswer('signed with another secret', 'refuse', await deliver(next(), { secret: `${options.secret}-not` }), 'accepts a signature made with another secret');
  const unsignedHeader = kind === 'checkout' ? 'X-Svc-Signature' : 'X-Webhook-Signature';
  expectAnswer(
    'no signature',
    'refuse',
    await deliver(next(), { headers: (h) => Object.fromEntries(Object.entries(h).filter(([name]) => name !== unsignedHeader)) }),
    'accepts a delivery without a signature',
  );
  const beyond = tolerance + 300;
  expectAnswer(`stale (${beyond} s old)`, 'refuse', await deliver(next(), { timestamp: seconds() - beyond }), `accepts an old timestamp: refuse one more than ${tolerance} s from now (replays)`);
  expectAnswer(`future-dated (${beyond} s ahead)`, 'refuse', await deliver(next(), { timestamp: seconds() + beyond }), `accepts a timestamp far ahead: refuse one more than ${tolerance} s from now`);

  // 3. The raw body, not its re-serialisation: both ways round.
  const pretty = next();
  const prettyRaw = JSON.stringify(pretty.body, null, 2);
  expectAnswer('raw body unlike its re-serialisation', 'accept', await deliver(pretty, { raw: prettyRaw }), 'verifies a re-serialisation of the JSON, not the raw body as received');
  const reserialised = next();
  expectAnswer(
    'signature over the re-serialised JSON',
    'refuse',
    await deliver(reserialised, { raw: JSON.stringify(reserialised.body, null, 2), signed: JSON.stringify(reserialised.body) }),
    'verifies a re-serialisation of the JSON: verify the raw body as received',
  );
  if (kind === 'checkout') {
    const failed = next({ failed: true });
    expectAnswer(
      'event headers disagree with the signed body',
      'refuse',
      await deliver(failed, { headers: (h) => ({ ...h, 'X-Svc-Event-Type': 'payment.succeeded' }) }),
      'trusts X-Svc-Event-Type / X-Svc-Event-ID, which are not signed: read the event from the signed body',
    );
  }

  // 4. The same event again, later and all at once: acknowledged, handled once.
  const again = await deliver(valid, { raw: validRaw });
  expectAnswer('duplicate', 'accept', again, 'refuses a delivery it already handled: answer 2xx, or the service retries it for hours');
  await expectHandled('duplicate handled once', valid, accepted(first), (times) => `handled the same event ${times} times: de-duplicate on the event key`);

  const concurrent = next();
  const concurrentRaw = JSON.stringify(concurrent.body);
  const answers = await Promise.all(Array.from({ length: options.concurrency ?? 5 }, () => deliver(concurrent, { raw: concurrentRaw })));
  push({
    name: `${answers.length} concurrent duplicates`,
    expected: '2xx, the others 2xx or 409',
    got: answers.map(shown).join(', '),
    ok: answers.some(accepted) && answers.every((a) => accepted(a) || a.status === 409),
    advice: noAnswer(answers) ? `no answer (${noAnswer(answers)!.error})` : 'answer 2xx once the event is handled, and 409 (retry later) while another delivery of it is being handled',
  });
  await expectHandled('concurrent duplicates handled once', concurrent, answers.some(accepted), (times) =>
    `handled one event ${times} times at once: claim the event key before handling`,
  );

  // 5. Out of order: the later event first, then an earlier one of the same payment.
  const shared = `order-${run}`;
  const later = next({ ramp: true, reference: shared });
  const earlier = next({ ramp: true, failed: true, reference: shared, age: 60 });
  const laterAnswer = await deliver(later);
  const earlierAnswer = await deliver(earlier);
  push({
    name: 'out of order (later event first)',
    expected: 'accept both',
    got: `${shown(laterAnswer)}, ${shown(earlierAnswer)}`,
    ok: accepted(laterAnswer) && accepted(earlierAnswer),
    advice: noAnswer([laterAnswer, earlierAnswer])
      ? `no answer (${noAnswer([laterAnswer, earlierAnswer])!.error})`
      : 'refuses an older event after a newer one: acknowledge it (2xx) and ignore it if it would move the order backwards',
  });

  return {
    url: options.url,
    kind,
    rows,
    missed: rows.filter((r) => r.ok === false).length,
    unchecked: rows.filter((r) => r.ok === undefined).length,
  };
}

/** The report as a table for a terminal. */
export function formatReport(report: CheckReport): string {
  const cells = report.rows.map((r) => [r.name, r.expected, r.got, r.ok === undefined ? '-' : r.ok ? 'ok' : 'MISS']);
  const head = ['delivery', 'should', 'got', ''];
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => c.map((v, i) => v.padEnd(widths[i]!)).join('  ').trimEnd();
  const misses = report.rows.filter((r) => r.ok === false).map((r) => `  ${r.name}: ${r.advice}`);
  const checked = report.rows.length - report.unchecked;
  return [
    `check-webhook ${report.url} (${report.kind} webhooks)`,
    '',
    line(head),
    ...cells.map(line),
    '',
    `${checked - report.missed} of ${checked} checks passed${report.missed ? `, ${report.missed} missed` : ''}${report.unchecked ? `; ${report.unchecked} not checked` : ''}.`,
    ...(misses.length ? ['', 'Misses:', ...misses] : []),
    ...(report.unchecked && report.rows.some((r) => r.got === 'not checked (no --handled-url)')
      ? ['', 'De-duplication and acknowledging before handling are checked with --handled-url.']
      : []),
  ].join('\n');
}
