/**
 * The webhook endpoint checker against real receivers on 127.0.0.1 (node:http): the SDK's
 * `createWebhookHandler` (from its source), which must pass every check, and receivers that
 * each make one classic mistake, which must be caught. One run goes through the CLI as a real
 * child process, as a merchant runs it.
 */
import { spawn } from 'node:child_process';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendWebResponse, toWebRequest } from '../../packages/sdk/src/handlers/adapters/node.js';
import { createWebhookHandler } from '../../packages/sdk/src/handlers/webhook.js';
import { MemoryDedupeStore } from '../../packages/sdk/src/webhooks/dedupe.js';
import { verifyWebhook } from '../../packages/sdk/src/webhooks/index.js';
import { checkWebhook, type CheckKind, type CheckReport } from '../src/check-webhook/index.js';

const SECRET = 'whsec_check_0123456789abcdef';
const hmac = (secret: string, text: string) => createHmac('sha256', secret).update(text).digest('hex');
const json = (status: number, body: unknown = {}) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

interface Receiver {
  url: string;
  handledUrl: string;
  close(): Promise<void>;
}

const receivers = new Set<Receiver>();

/** Serves `handler` at POST /hooks and the events it handled at GET /handled, on 127.0.0.1. */
async function serve(makeHandler: (handled: unknown[]) => (request: Request) => Promise<Response>): Promise<Receiver> {
  const handled: unknown[] = [];
  const handler = makeHandler(handled);
  const server = createServer(async (req, res) => {
    if (req.method === 'GET' && req.url === '/handled') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(handled));
    await sendWebResponse(await handler(await toWebRequest(req, req.url ?? '/', undefined)), res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const receiver = {
    url: `${origin}/hooks`,
    handledUrl: `${origin}/handled`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  receivers.add(receiver);
  return receiver;
}

const sdkReceiver = (kind: CheckKind, options: { tolerance?: number; onEvent?: (event: any) => unknown } = {}) =>
  serve((handled) =>
    createWebhookHandler({
      ...(kind === 'checkout' ? { kind: 'checkout' as const } : {}),
      secret: SECRET,
      store: new MemoryDedupeStore(),
      tolerance: options.tolerance,
      onError: () => {},
      onEvent: async (event: any) => {
        await options.onEvent?.(event);
        handled.push(event);
      },
    }),
  );

const check = (receiver: Receiver, kind: CheckKind = 'order', probe = true) =>
  checkWebhook({ url: receiver.url, secret: SECRET, kind, ...(probe ? { handledUrl: receiver.handledUrl } : {}) });

const missed = (report: CheckReport) => report.rows.filter((r) => r.ok === false).map((r) => r.name);

afterAll(async () => {
  await Promise.all([...receivers].map((r) => r.close()));
});

describe('check-webhook against the SDK handler', () => {
  it.each(['order', 'checkout'] as const)('passes every check of a correct %s receiver', async (kind) => {
    const report = await check(await sdkReceiver(kind), kind);
    expect(report.rows.filter((r) => r.ok !== true)).toEqual([]);
    expect(report).toMatchObject({ kind, missed: 0, unchecked: 0 });
    const names = report.rows.map((r) => r.name);
    for (const name of ['valid delivery', 'tampered body', 'signed with another secret', 'no signature', 'stale (600 s old)', 'future-dated (600 s ahead)']) {
      expect(names).toContain(name);
    }
    expect(names.includes('event headers disagree with the signed body')).toBe(kind === 'checkout');
  });

  it('leaves the handling checks unchecked without a handled-events URL, and misses nothing', async () => {
    const report = await check(await sdkReceiver('order'), 'order', false);
    expect(report.missed).toBe(0);
    expect(report.rows.filter((r) => r.ok === undefined).map((r) => r.name)).toEqual([
      'handled before the 2xx',
      'duplicate handled once',
      'concurrent duplicates handled once',
    ]);
  });
});

describe('check-webhook catches the classic mistakes', () => {
  it('no verification at all', async () => {
    const receiver = await serve((handled) => async (request) => {
      handled.push(JSON.parse(await request.text()));
      return json(200);
    });
    const report = await check(receiver);
    expect(missed(report)).toEqual(expect.arrayContaining(['tampered body', 'signed with another secret', 'no signature', 'stale (600 s old)', 'future-dated (600 s ahead)', 'signature over the re-serialised JSON']));
  });

  it('accepts stale and future-dated timestamps (tolerance off)', async () => {
    const report = await check(await sdkReceiver('order', { tolerance: 0 }));
    expect(missed(report)).toEqual(['stale (600 s old)', 'future-dated (600 s ahead)']);
  });

  it('verifies the re-serialised JSON instead of the raw body', async () => {
    const seen = new Set<string>();
    const receiver = await serve((handled) => async (request) => {
      const event = JSON.parse(await request.text());
      const again = Buffer.from(hmac(SECRET, JSON.stringify(event)));
      const given = Buffer.from(request.headers.get('x-webhook-signature') ?? '');
      const age = Math.abs(Date.now() / 1000 - Number(request.headers.get('x-webhook-timestamp')));
      if (given.length !== again.length || !timingSafeEqual(given, again) || !(age <= 300)) return json(400);
      const key = `${event.order_id ?? event.data?.reference}:${event.event}`;
      if (!seen.has(key)) {
        seen.add(key);
        handled.push(event);
      }
      return json(200);
    });
    expect(missed(await check(receiver))).toEqual(['raw body unlike its re-serialisation', 'signature over the re-serialised JSON']);
  });

  it('no de-duplication', async () => {
    const receiver = await serve((handled) => async (request) => {
      try {
        handled.push(await verifyWebhook({ body: await request.text(), headers: request.headers, secret: SECRET }));
        return json(200);
      } catch {
        return json(400);
      }
    });
    expect(missed(await check(receiver))).toEqual(['duplicate handled once', 'concurrent duplicates handled once']);
  });

  it('acknowledges before handling (handles from a queue after answering)', async () => {
    const queued = new Set<string>();
    const receiver = await serve((handled) => async (request) => {
      try {
        const event = await verifyWebhook({ body: await request.text(), headers: request.headers, secret: SECRET });
        const key = JSON.stringify(event);
        if (!queued.has(key)) {
          queued.add(key);
          setTimeout(() => handled.push(event), 5_000);
        }
        return json(200);
      } catch {
        return json(400);
      }
    });
    const report = await check(receiver);
    // Not yet handled when acknowledged; the signature and time checks all pass.
    expect(missed(report)).toEqual(['handled before the 2xx', 'duplicate handled once', 'concurrent duplicates handled once']);
    expect(report.rows.filter((r) => r.ok === false).map((r) => r.got)).toEqual(['handled 0×', 'handled 0×', 'handled 0×']);
  });

  it('refuses an older event after a newer one of the same payment', async () => {
    const state = new Map<string, string>();
    const receiver = await sdkReceiver('order', {
      onEvent: (event) => {
        const payment = event.data?.meta?.ramp_order_id;
        if (!payment) return;
        // The mistake: a strict state machine that errors on a move backwards, so the service retries it for hours.
        if (state.get(payment) === 'payment.completed' && event.event === 'payment.failed') throw new Error('completed cannot fail');
        state.set(payment, event.event);
      },
    });
    expect(missed(await check(receiver))).toEqual(['out of order (later event first)']);
  });

  it('trusts the unsigned checkout event headers', async () => {
    const receiver = await serve((handled) => async (request) => {
      const body = await request.text();
      const stamp = request.headers.get('x-svc-timestamp') ?? '';
      const fresh = Math.abs(Date.now() / 1000 - Number(stamp)) <= 300;
      if (!fresh || request.headers.get('x-svc-signature') !== `v1=${hmac(SECRET, `${stamp}.${body}`)}`) return json(400);
      // The mistake: the type and id from the headers, not from the signed body.
      const id = request.headers.get('x-svc-event-id');
      if (!handled.some((e: any) => e.id === id)) handled.push({ ...JSON.parse(body), id, type: request.headers.get('x-svc-event-type') });
      return json(200);
    });
    expect(missed(await check(receiver, 'checkout'))).toEqual(['event headers disagree with the signed body']);
  });
});

describe('sikaramp-mock check-webhook (child process)', () => {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const bundle = `${root}node_modules/.cache/sikaramp-check-webhook-test/cli.mjs`;
  beforeAll(async () => {
    await build({ entryPoints: [`${root}src/cli.ts`], outfile: bundle, bundle: true, platform: 'node', format: 'esm', target: 'node22', packages: 'external', logLevel: 'silent' });
  });

  const runCli = (args: string[], env: Record<string, string> = {}) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const proc = spawn(process.execPath, [bundle, 'check-webhook', ...args], { cwd: root, env: { ...process.env, ...env } });
      let stdout = '';
      let stderr = '';
      proc.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      proc.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      proc.on('exit', (code) => resolve({ code, stdout, stderr }));
    });

  it('prints the table and exits 0 for a correct checkout receiver, 1 with the misses for a receiver that verifies nothing', async () => {
    const good = await sdkReceiver('checkout');
    const [ok, asJson] = await Promise.all([
      runCli([good.url, '--kind', 'checkout', '--handled-url', good.handledUrl], { SIKARAMP_WEBHOOK_SECRET: SECRET }),
      runCli([good.url, '--kind', 'checkout', '--secret', SECRET, '--json']),
    ]);
    expect(asJson.code).toBe(0);
    expect(JSON.parse(asJson.stdout)).toMatchObject({ url: good.url, kind: 'checkout', missed: 0, unchecked: 3 });
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain(`check-webhook ${good.url} (checkout webhooks)`);
    expect(ok.stdout).toMatch(/tampered body\s+refuse\s+400\s+ok/);
    expect(ok.stdout).toMatch(/valid delivery\s+accept\s+200\s+ok/);
    expect(ok.stdout).toMatch(/(\d+) of \1 checks passed\./);

    const bad = await serve(() => async () => json(200));
    const miss = await runCli([bad.url, '--secret', SECRET]);
    expect(miss.code).toBe(1);
    expect(miss.stdout).toMatch(/tampered body\s+refuse\s+200\s+MISS/);
    expect(miss.stdout).toContain('tampered body: accepts a body changed after signing');
    expect(miss.stdout).toContain('checked with --handled-url');
  });

  it('exits 2 with the usage on bad arguments', async () => {
    const cases = [[], ['not a url', '--secret', 's'], ['http://127.0.0.1:1/x'], ['http://127.0.0.1:1/x', '--secret', 's', '--kind', 'ramp']];
    const results = await Promise.all(cases.map((args) => runCli(args, { SIKARAMP_WEBHOOK_SECRET: '' })));
    for (const [i, res] of results.entries()) {
      expect(res.code, cases[i]!.join(' ')).toBe(2);
      expect(res.stderr).toContain('usage: sikaramp-mock check-webhook <url>');
      expect(res.stdout).toBe('');
    }
  });

  it('exits 2 without a table when the endpoint cannot be reached', async () => {
    const gone = await serve(() => async () => json(200));
    await gone.close();
    const res = await runCli([gone.url, '--secret', SECRET]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`could not reach ${gone.url}: ECONNREFUSED`);
    expect(res.stdout).toBe('');
  });
});
