/**
 * `pnpm bench`: webhook verification and de-duplication (memory, SQLite, Redis), the cost of an SDK call over a bare fetch, bundle sizes
 * and a whole buy against the in-process mock, in one run. Runs against the built package (dist), as merchants use it.
 */
import { benchBuy } from './buy.ts';
import { benchClients, benchClientSizes } from './clients.ts';
import { benchHttp } from './http.ts';
import { benchRedis, REDIS_HEAD } from './redis.ts';
import { benchSize } from './size.ts';
import { benchWebhooks } from './webhooks.ts';

function table(head: string[], rows: string[][]) {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log([line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n'));
}

console.log(`@sikaramp/sdk bench, node ${process.version}, ${new Date().toISOString()}\n`);

const webhooks = await benchWebhooks();
console.log('## Webhook verification (median of 5 rounds of 0.7 s; one at a time, then 32 in flight)\n');
table(['verifier', 'ops/s', 'CPU per op', 'vs baseline (CPU)', 'ops/s, 32 in flight', 'vs baseline'], webhooks.rows);
console.log(`\n${webhooks.summary.join('\n')}\n`);

const redis = await benchRedis();
console.log('## De-duplicating a webhook: a Redis claim next to the in-memory one (median of 3 rounds of 0.5 s; one at a time, then 32 in flight)\n');
table(REDIS_HEAD, redis.rows);
console.log(`\n${redis.summary.join('\n')}\n`);

const http = await benchHttp();
console.log('## SDK call vs bare fetch, same local server (one at a time, keep-alive, median of 5 rounds of 1 s)\n');
table(['client', 'calls/s', 'mean latency', 'CPU per call'], http.rows);
console.log(`\n${http.summary.join('\n')}\n`);

const size = await benchSize();
console.log('## Bundle size (esbuild, minified, gzip -9)\n');
table(['import', 'minified', 'gzipped', 'packages pulled in'], size.rows);

const clients = await benchClients();
console.log('\n## Ramp and checkout clients vs bare fetch, same local server (one at a time, keep-alive, median of 5 rounds of 1 s)\n');
table(['client', 'calls/s', 'mean latency', 'CPU per call'], clients.rows);
console.log(`\n${clients.summary.join('\n')}\n`);
console.log('## Importing one client (esbuild, minified, gzip -9)\n');
table(['import from @sikaramp/sdk', 'minified', 'gzipped', 'packages pulled in'], (await benchClientSizes()).rows);

const buy = await benchBuy();
console.log('\n## A whole buy in-process on the manual clock (msw/node, webhook verified on 127.0.0.1)\n');
table(['flow', 'median', 'fastest', 'slowest'], buy.rows);
console.log(`\n${buy.summary.join('\n')}`);
