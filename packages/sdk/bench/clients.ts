/**
 * The ramp and checkout clients against a bare fetch of the same answers from one local
 * server (in its own process), and what importing only one of them adds to a bundle.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { CheckoutClient, RampClient } from '../dist/index.js';
import { compare, fmt, ratio } from './measure.ts';
import { bundleSize } from './size.ts';

const server = `
import { createServer } from 'node:http';
const meta = { request_id: 'req_bench', timestamp: '2026-01-01T00:00:00.000Z' };
const order = JSON.stringify({ data: {
  id: '3d0b8c1e-7c1a-4c36-9a0e-0b1d6f6b7a10', reference: 'RMP-20260101-3d0b8c1e-7c1a-4c36-9a0e-0b1d6f6b7a10', type: 'onramp',
  status: 'crypto_sending', fiat_amount: 100, crypto_amount: 6.31, rate: 15.5, fees: { platform_fee: 1.5, network_fee: 0.01, total: 1.51, fee_bps: 150 },
  expires_at: '2026-01-01T00:05:00.000Z', crypto_tx_hash: null, completed_at: null, failure_reason: null, deposit: null,
}, meta });
const session = JSON.stringify({ success: true, data: {
  id: 'cs_0123456789abcdef0123456789abcdef', reference: 'PAY-20260101-0123456789AB', status: 'completed',
  amount: 10000, final_amount: 10000, currency: 'GHS', meta: { order_id: '42' },
} });
const created = JSON.stringify({ success: true, data: {
  checkout_url: 'http://127.0.0.1/gateway/checkout/cs_0123456789abcdef0123456789abcdef', reference: 'PAY-20260101-0123456789AB', session_id: 'cs_0123456789abcdef0123456789abcdef',
} });
const s = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const [status, body] = req.url.startsWith('/api/v1/ramp/') ? [200, order] : req.method === 'POST' ? [201, created] : [200, session];
    res.writeHead(status, { 'content-type': 'application/json' }).end(body);
  });
});
s.keepAliveTimeout = 60_000;
s.listen(0, '127.0.0.1', () => console.log(s.address().port));
`;

const payment = { amount: 10_000, currency: 'GHS', recipient: { name: 'Ama Mensah', email: 'ama@example.com' }, redirect_url: 'https://shop.example/return' };

export async function benchClients() {
  const child = spawn(process.execPath, ['--input-type=module', '-e', server], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
  const origin = `http://127.0.0.1:${Number(chunk.toString().trim())}`;
  try {
    const ramp = new RampClient({ baseUrl: origin, secretKey: 'sika_secret_bench0000000000000000000000000000000000000000' });
    const checkout = new CheckoutClient({ baseUrl: origin, apiKey: 'sika_checkout_bench' });
    const bare = (path: string, init?: RequestInit) => async () => {
      const res = await fetch(`${origin}${path}`, init);
      if (!res.ok) throw new Error(String(res.status));
      return ((await res.json()) as { data: unknown }).data;
    };
    const reference = 'RMP-20260101-3d0b8c1e-7c1a-4c36-9a0e-0b1d6f6b7a10';
    const pairs = [
      ['ramp.orders.get()', bare(`/api/v1/ramp/orders/${reference}`, { headers: { authorization: 'Bearer k' } }), () => ramp.orders.get(reference)],
      ['checkout.payments.verify()', bare('/api/v1/developer/payments/cs_0123'), () => checkout.payments.verify('cs_0123')],
      [
        'checkout.payments.create()',
        bare('/api/v1/developer/payments', {
          method: 'POST',
          headers: { authorization: 'Bearer k', 'content-type': 'application/json', 'idempotency-key': 'k' },
          body: JSON.stringify({ type: 'checkout', ...payment }),
        }),
        () => checkout.payments.create(payment),
      ],
    ] as const;
    const rows: string[][] = [];
    const summary: string[] = [];
    for (const [name, fetchRun, sdkRun] of pairs) {
      const [fetchResult, sdkResult] = await compare(
        [
          { name: `bare fetch for ${name}`, run: fetchRun },
          { name: `sdk ${name}`, run: sdkRun },
        ],
        { ms: 1_000 },
      );
      for (const r of [fetchResult!, sdkResult!]) rows.push([r.name, fmt(r.opsPerSecond), `${(1000 / r.opsPerSecond).toFixed(3)} ms`, `${r.cpuMicros.toFixed(0)} µs`]);
      const added = (1000 / sdkResult!.opsPerSecond - 1000 / fetchResult!.opsPerSecond) * 1000;
      // On a shared machine the CPU time per call is the steadier figure (see measure.ts).
      summary.push(
        `${name} / bare fetch: ${ratio(sdkResult!.opsPerSecond, fetchResult!.opsPerSecond)} the calls per second (${added.toFixed(0)} µs added per call); ` +
          `${ratio(fetchResult!.cpuMicros, sdkResult!.cpuMicros)} by CPU time (${(sdkResult!.cpuMicros - fetchResult!.cpuMicros).toFixed(0)} µs more CPU per call)`,
      );
    }
    return { rows, summary };
  } finally {
    child.kill();
  }
}

/** esbuild bundle of `import { <name> } from '@sikaramp/sdk'`, minified, and the packages it pulls in. */
async function namedImportSize(name: string) {
  const { min, gzip, packages } = await bundleSize(`export { ${name} } from '@sikaramp/sdk';`);
  return [`{ ${name} }`, `${(min / 1024).toFixed(1)} KiB`, `${(gzip / 1024).toFixed(1)} KiB`, packages.join(', ') || '(none)'];
}

export async function benchClientSizes() {
  return { rows: [await namedImportSize('CheckoutClient'), await namedImportSize('RampClient')] };
}
