/**
 * `pnpm --filter @sikaramp/mock-server bench`: the standalone mock server (built, in a process
 * of its own) under a bounded local load with autocannon on 127.0.0.1, against a bare node:http
 * server answering a fixed JSON in the same run. Every request must be answered (no errors,
 * no timeouts, no non-2xx); requests per second and p99 latency are reported as ratios to
 * the bare server, which is what stays comparable from one machine to another.
 *
 * The mock first holds a realistic store (STORED_PAYMENTS payments, one in ten paid), and
 * each row is warmed up before it is measured, so that a lookup or a creation that slows
 * down as records grow, or a first run of cold code, shows in the figures. Each row is
 * measured in rounds, bare and mock taking turns, and reports the rounds' medians.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import autocannon from 'autocannon';

/** Load of one measurement: connections kept busy for this many seconds. */
const CONNECTIONS = 10;
const SECONDS = 2;
/**
 * Measurements per row and server, the bare one and the mock taking turns: on a machine other
 * work shares, a ratio of two runs seconds apart follows that work, so a row gives the median.
 */
const ROUNDS = 3;
/** Unmeasured load before a row's first measurement, seconds: the JIT settles before the figures count. */
const WARM_UP_SECONDS = 1;
/** Payments the mock holds before the first row; the creation row adds tens of thousands more. */
const STORED_PAYMENTS = 5_000;

const dist = new URL('../dist/index.js', import.meta.url).href;

const mockScript = `
import { startMockServer } from ${JSON.stringify(dist)};
const server = await startMockServer({ port: 0, host: '127.0.0.1', clock: 'manual', seed: 1 });
console.log(server.url);
`;

// The size of the mock's answers, so that both servers write about as many bytes.
const bareScript = `
import { createServer } from 'node:http';
const body = JSON.stringify({ success: true, data: { id: 'cs_0123456789abcdef0123456789abcdef', reference: 'PAY-20260101-0123456789AB', status: 'completed', amount: 10000, final_amount: 10000, currency: 'GHS', meta: { order_id: 'A-1' }, created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z', expires_at: '2026-01-01T00:30:00.000Z' } });
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json' }).end(body));
});
server.keepAliveTimeout = 5000;
server.listen(0, '127.0.0.1', () => console.log('http://127.0.0.1:' + server.address().port));
`;

async function serve(script: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
  return { url: chunk.toString().trim(), child };
}

interface Target {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

interface Measured {
  rps: number;
  p99: number;
  total: number;
  failures: string[];
}

async function measure(origin: string, t: Target, duration = SECONDS): Promise<Measured> {
  const load = { url: `${origin}${t.path}`, method: t.method, headers: t.headers, body: t.body, connections: CONNECTIONS, timeout: 5 };
  const r = await autocannon({ ...load, duration });
  const failures = [
    r.errors > 0 && `${r.errors} errors`,
    r.timeouts > 0 && `${r.timeouts} timeouts`,
    r.non2xx > 0 && `${r.non2xx} non-2xx (${JSON.stringify(r.statusCodeStats)})`,
  ].filter((f): f is string => typeof f === 'string');
  return { rps: r.requests.average, p99: r.latency.p99, total: r.requests.total, failures };
}

async function json(url: string, init: RequestInit = {}) {
  const res = await fetch(url, { ...init, headers: { 'content-type': 'application/json', ...init.headers } });
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${url} answered ${res.status}: ${await res.text()}`);
  return res.json() as Promise<any>;
}

const mock = await serve(mockScript);
const bare = await serve(bareScript);
let failed = false;
try {
  // A checkout key and one payment to look up, through the mock's own API.
  const { key } = await json(`${mock.url}/_mock/checkout/keys`, { method: 'POST', body: '{}' });
  const payment = JSON.stringify({ type: 'checkout', amount: 10_000, currency: 'GHS', recipient: { name: 'Ama Mensah', email: 'ama@example.com' }, redirect_url: 'https://shop.example/return', meta: { order_id: 'A-1' } });
  const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const create = () => json(`${mock.url}/api/v1/developer/payments`, { method: 'POST', headers: auth, body: payment });
  const complete = (reference: string) =>
    json(`${mock.url}/_mock/checkout/${reference}/complete`, { method: 'POST', body: JSON.stringify({ status: 'completed' }) });
  // A store as a shop's would be after a while, CONNECTIONS requests at a time; the looked-up payment sits in the middle.
  let looked: { reference: string; session_id: string } | undefined;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async (_, lane) => {
      for (let i = lane; i < STORED_PAYMENTS; i += CONNECTIONS) {
        const { data } = await create();
        if (i % 10 === 0) await complete(data.reference);
        if (i === STORED_PAYMENTS / 2) looked = data;
      }
    }),
  );
  const data = looked!;

  const targets: Target[] = [
    { name: 'GET /api/v1/developer/payments/{ref} (order lookup)', method: 'GET', path: `/api/v1/developer/payments/${data.session_id}`, headers: {} },
    { name: 'GET /api/v1/developer/payments/{PAY-ref} (lookup by gateway reference)', method: 'GET', path: `/api/v1/developer/payments/${data.reference}`, headers: {} },
    { name: 'POST /api/v1/developer/payments (checkout create, no Idempotency-Key)', method: 'POST', path: '/api/v1/developer/payments', headers: auth, body: payment },
  ];

  console.log(`@sikaramp/mock-server bench, node ${process.version}, ${new Date().toISOString()}`);
  console.log(
    `${CONNECTIONS} connections, 127.0.0.1; per row ${WARM_UP_SECONDS} s of warm-up, then ${ROUNDS} rounds of ${SECONDS} s, bare then mock, and the rounds' medians (req/s ratio: median of the rounds' ratios);`,
  );
  console.log(
    `the mock holds ${STORED_PAYMENTS} payments before the first row; the bare server answers a fixed JSON of the same size\n`,
  );
  const rows: string[][] = [];
  for (const target of targets) {
    const warmUp = [await measure(bare.url, target, WARM_UP_SECONDS), await measure(mock.url, target, WARM_UP_SECONDS)];
    const base: Measured[] = [];
    const got: Measured[] = [];
    // Bare right before the mock, so that both see the machine in the same state.
    for (let round = 0; round < ROUNDS; round++) {
      base.push(await measure(bare.url, target));
      got.push(await measure(mock.url, target));
    }
    if ([...warmUp, ...base, ...got].some((m) => m.failures.length > 0)) failed = true;
    const p99 = { mock: median(got.map((m) => m.p99)), bare: median(base.map((m) => m.p99)) };
    rows.push([
      target.name,
      `${median(got.map((m) => m.rps)).toFixed(0)} / ${median(base.map((m) => m.rps)).toFixed(0)}`,
      median(got.map((m, i) => m.rps / base[i]!.rps)).toFixed(2),
      `${p99.mock} / ${p99.bare}`,
      (p99.mock / Math.max(p99.bare, 1)).toFixed(1),
      String(got.reduce((sum, m) => sum + m.total, 0)),
      [...new Set([warmUp[1]!, ...got].flatMap((m) => m.failures))].join(', ') || 'none',
    ]);
  }
  table(['endpoint', 'req/s mock / bare', 'req/s ratio', 'p99 ms mock / bare', 'p99 ratio', 'requests', 'unanswered or failed'], rows);
} finally {
  mock.child.kill();
  bare.child.kill();
}
if (failed) {
  console.error('\nFAILED: some requests were not answered with a 2xx.');
  process.exitCode = 1;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function table(head: string[], rows: string[][]) {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log([line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n'));
}
