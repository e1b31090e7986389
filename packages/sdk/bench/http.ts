/**
 * One SDK call against a bare fetch of the same answer from the same local server (in its own
 * process): the default client (node:http on Node) and the same client on Node's fetch.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { WidgetClient } from '../dist/index.js';
import { compare, fmt, ratio, type Result } from './measure.ts';

const server = `
import { createServer } from 'node:http';
const body = JSON.stringify({
  data: { merchant_id: '7d3c1a52-0a51-4c36-9a0e-0b1d6f6b7a10', theme: { primary_color: '#0f766e', border_radius: '12px' }, allowed_coins: ['USDC'], redirect_url: null },
  meta: { request_id: 'req_bench', timestamp: '2026-01-01T00:00:00.000Z' },
});
const s = createServer((req, res) => { req.resume(); res.writeHead(200, { 'content-type': 'application/json' }); res.end(body); });
s.keepAliveTimeout = 60_000;
s.listen(0, '127.0.0.1', () => console.log(s.address().port));
`;

export async function benchHttp() {
  const child = spawn(process.execPath, ['--input-type=module', '-e', server], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
  const origin = `http://127.0.0.1:${Number(chunk.toString().trim())}`;
  try {
    const widget = new WidgetClient({ baseUrl: origin, secretKey: 'sika_secret_bench0000000000000000000000000000000000000000' });
    const bare = async () => {
      const res = await fetch(`${origin}/api/v1/widget/config`, { headers: { 'X-API-Key': 'sika_secret_bench' } });
      if (!res.ok) throw new Error(String(res.status));
      return ((await res.json()) as { data: unknown }).data;
    };
    // The same client made to go through Node's fetch (undici), as on a runtime without node:http:
    // what the default node:http transport (core/transport.ts) saves.
    const widgetOnFetch = new WidgetClient({
      baseUrl: origin,
      secretKey: 'sika_secret_bench0000000000000000000000000000000000000000',
      fetch: (input, init) => globalThis.fetch(input, init),
    });
    // Each pair in rounds of its own, as the ramp and checkout rows are (clients.ts): with a third
    // contender in the same rounds, the garbage it leaves is collected in the next one's time.
    const bareRun = { name: 'bare fetch + res.json()', run: bare };
    // The fetch pair first: its rounds also finish warming undici, so that the SDK is then held
    // against a bare fetch at full speed.
    const [bareAgain, onFetchResult] = (await compare([bareRun, { name: 'sdk widget.config.get() through fetch', run: () => widgetOnFetch.config.get() }], {
      ms: 1_000,
    })) as [Result, Result];
    const [bareResult, sdkResult] = (await compare([bareRun, { name: 'sdk widget.config.get()', run: () => widget.config.get() }], { ms: 1_000 })) as [Result, Result];
    return {
      rows: [bareAgain, onFetchResult, bareResult, sdkResult].map((r) => [r.name, fmt(r.opsPerSecond), `${(1000 / r.opsPerSecond).toFixed(3)} ms`, `${r.cpuMicros.toFixed(0)} µs`]),
      summary: [
        `sdk call / bare fetch: ${ratio(sdkResult.opsPerSecond, bareResult.opsPerSecond)} the calls per second; ` +
          `${ratio(bareResult.cpuMicros, sdkResult.cpuMicros)} by CPU time (${(sdkResult.cpuMicros - bareResult.cpuMicros).toFixed(0)} µs more CPU per call)`,
        `sdk call through fetch / bare fetch: ${ratio(onFetchResult.opsPerSecond, bareAgain.opsPerSecond)} the calls per second; ` +
          `${ratio(bareAgain.cpuMicros, onFetchResult.cpuMicros)} by CPU time (ky, zod and the retry bookkeeping on Node's fetch: ${(onFetchResult.cpuMicros - bareAgain.cpuMicros).toFixed(0)} µs more CPU per call)`,
      ],
    };
  } finally {
    child.kill();
  }
}
