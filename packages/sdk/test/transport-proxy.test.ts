/**
 * HTTP_PROXY and friends on Node: the SDK's node:http transport follows them exactly when
 * Node's own fetch does, that is when Node is started with NODE_USE_ENV_PROXY=1 (or
 * --use-env-proxy), NO_PROXY included; otherwise both go direct. node:http sends a plain-HTTP
 * request to the proxy in absolute form, fetch tunnels it with CONNECT. Each case runs the built
 * SDK in a fresh Node process (the setting is read at startup) against a proxy on 127.0.0.1.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/http-server.js';

const payment = { id: 'cs_1', reference: 'PAY-1', status: 'pending', amount: 1, final_amount: 1, currency: 'GHS' };
const dist = new URL('../dist/index.js', import.meta.url);
const answer = (res: ServerResponse, via: string) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ data: { ...payment, reference: via } }));
};

let target: TestServer;
let proxy: Server;
let proxyUrl: string;
/** What reached the proxy: `GET <absolute URL>` or `CONNECT <host:port>`. */
const seen: string[] = [];
beforeAll(async () => {
  target = await startTestServer((_req, res) => answer(res, 'direct'));
  // A forward proxy: answers a plain request itself, and tunnels a CONNECT to where it names.
  proxy = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    answer(res, 'proxy');
  });
  proxy.on('connect', (req, socket) => {
    seen.push(`CONNECT ${req.url}`);
    const [host, port] = req.url!.split(':');
    const upstream = connect(Number(port), host!, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.pipe(socket).pipe(upstream);
    });
    socket.on('error', () => upstream.destroy());
    upstream.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise<void>((resolve) => proxy.close(() => resolve()));
  await target.close();
});

/** The answer the built SDK got, through its default transport and through Node's fetch, in a Node started with `env`. */
function run(env: Record<string, string>): Promise<{ sdk: string; fetch: string }> {
  const script = `
    const { CheckoutClient } = await import(${JSON.stringify(dist.href)});
    const via = (options) => new CheckoutClient({ baseUrl: ${JSON.stringify(target.url)}, maxRetries: 0, timeout: 5000, ...options }).payments.verify('cs_1').then((r) => r.session.reference);
    console.log(JSON.stringify({ sdk: await via({}), fetch: await via({ fetch: (input, init) => fetch(input, init) }) }));
    process.exit(0);
  `;
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(https?_proxy|no_proxy|all_proxy|node_use_env_proxy|node_options)$/i.test(name)));
  return new Promise((resolve, reject) =>
    execFile(process.execPath, ['--input-type=module', '-e', script], { env: { ...clean, ...env }, timeout: 20_000 }, (error, out, err) =>
      error ? reject(new Error(`${error.message}\n${err}`)) : resolve(JSON.parse(out) as { sdk: string; fetch: string }),
    ),
  );
}

describe('HTTP_PROXY on Node', () => {
  const path = '/api/v1/developer/payments/cs_1';
  it.each<[string, Record<string, string>, { sdk: string; fetch: string }, (target: string) => string[]]>([
    ['is ignored without NODE_USE_ENV_PROXY, as fetch ignores it', { HTTP_PROXY: 'PROXY' }, { sdk: 'direct', fetch: 'direct' }, () => []],
    [
      'is followed with NODE_USE_ENV_PROXY=1, as fetch follows it',
      { HTTP_PROXY: 'PROXY', NODE_USE_ENV_PROXY: '1' },
      // node:http asks the proxy for the absolute URL; fetch tunnels through it to the target.
      { sdk: 'proxy', fetch: 'direct' },
      (url) => [`GET ${url}${path}`, `CONNECT ${new URL(url).host}`],
    ],
    ['is bypassed for a host NO_PROXY names', { HTTP_PROXY: 'PROXY', NODE_USE_ENV_PROXY: '1', NO_PROXY: '127.0.0.1' }, { sdk: 'direct', fetch: 'direct' }, () => []],
  ])('%s', async (_name, env, expected, through) => {
    expect(existsSync(dist), 'build first: pnpm --filter @sikaramp/sdk build').toBe(true);
    const given = Object.fromEntries(Object.entries(env).map(([name, value]) => [name, value === 'PROXY' ? proxyUrl : value]));
    const before = seen.length;
    await expect(run(given)).resolves.toEqual(expected);
    expect(seen.slice(before)).toEqual(through(target.url));
  }, 30_000);
});
