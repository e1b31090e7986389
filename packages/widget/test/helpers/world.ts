/**
 * What the browser tests run against, all on 127.0.0.1: the standalone mock server (the
 * service), a merchant's site on another origin (its page with `<ramp-widget>` and its backend
 * holding the secret key), and headless Chromium.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startMockServer, type MockServer } from '@sikaramp/mock-server';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { launchChromium } from '../../../../test/chromium.js';
// The SDK from source: the widget does not depend on it, the merchant backend of these tests does.
import { AnchorClient } from '../../../sdk/src/anchor/index.js';
import { WidgetClient } from '../../../sdk/src/index.js';
// The Stellar SDK the SDK itself loads (the widget has none of its own), so that keys and
// transactions are of one copy.
import { Keypair } from '../../../sdk/node_modules/@stellar/stellar-sdk/lib/esm/index.js';
import { bundlePage } from './dist.js';
import { stellarAccountId } from './stellar.js';

export interface RecordedEvent {
  type: string;
  detail: any;
  bubbles: boolean;
  composed: boolean;
}

export interface ShopPage {
  page: Page;
  /** Every ramp-* event the page received on `document`, across navigations. */
  events: RecordedEvent[];
  /** Every URL the page requested. */
  requests: string[];
}

export interface World {
  mock: MockServer;
  /** Origin of the merchant's site: its page and its backend. */
  shop: string;
  publicKey: string;
  /** A public key allowed only on another site's origin. */
  foreignPublicKey: string;
  /** A public key allowed on the shop's origin and on another site's. */
  twoSitePublicKey: string;
  secretKey: string;
  customerId: string;
  /** Bodies the widget POSTed to the shop's session endpoint. */
  sessionRequests: any[];
  /** Name of the lazily loaded Freighter chunk. */
  freighterChunk: string;
  /** Another site (another origin) that anyone could put in a frame. */
  stranger: string;
  /**
   * A hostile widget backend: `{hostile}/theme/<base64url JSON>` as `api-base` answers the widget
   * config with that theme (CORS open to any page); every other request it gets is a beacon hit.
   */
  hostile: string;
  /** Paths of the requests that reached the hostile server other than config reads (beacon hits). */
  beacons: string[];
  browser: Browser;
  /** Opens the shop's page with these `<ramp-widget>` attributes (over the defaults). */
  open(attributes?: Record<string, string | null>, options?: { lang?: string; autoOpen?: boolean; noReferrer?: boolean }): Promise<ShopPage>;
  /** A call to the mock's control surface (`/_mock/...`); returns the JSON body. */
  control(method: string, path: string, body?: unknown): Promise<any>;
  close(): Promise<void>;
}

const EVENTS = ['ramp-ready', 'ramp-open', 'ramp-status', 'ramp-complete', 'ramp-error', 'ramp-close'];
const ATTRIBUTES = ['data-api-key', 'flow', 'mode', 'session-url', 'status-url', 'api-base', 'amount', 'destination', 'allow', 'poll-interval'];

async function call(url: string, method: string, init: { body?: unknown; headers?: Record<string, string> } = {}) {
  const res = await fetch(url, {
    method,
    headers: { ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  const body = text ? JSON.parse(text) : undefined;
  expect(res.ok, `${method} ${url} -> ${res.status} ${text}`).toBe(true);
  return body;
}

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The merchant's page: records every ramp-* event (bubbled to `document`) before the widget loads. */
function shopPage(query: URLSearchParams): string {
  const attrs = ATTRIBUTES.filter((a) => query.has(a))
    .map((a) => `${a}="${escape(query.get(a)!)}"`)
    .join(' ');
  const lang = query.get('lang');
  // Many sites send no Referer: then only the origin the widget puts on the URL says who we are.
  const referrer = query.has('noreferrer') ? '<meta name="referrer" content="no-referrer">' : '';
  return `<!doctype html>
<html${lang ? ` lang="${escape(lang)}"` : ''}><head><meta charset="utf-8">${referrer}<title>Kofi Shop</title></head>
<body>
<button id="before">Before</button>
<ramp-widget ${attrs}></ramp-widget>
<button id="after">After</button>
<script type="module">
window.rampEvents = [];
for (const type of ${JSON.stringify(EVENTS)}) {
  document.addEventListener(type, (e) => {
    const event = { type, detail: e.detail, bubbles: e.bubbles, composed: e.composed };
    window.rampEvents.push(event);
    window.recordRampEvent(event);
  });
}
await import('/widget/ramp-widget.js');
// Opened outside a click (the browser blocks a popup then); how open()'s promise settled goes to window.opened.
if (${query.has('autoopen')}) document.querySelector('ramp-widget').open().then(
  (value) => (window.opened = { value }),
  ({ name, code, message, transaction }) => (window.opened = { error: { name, code, message, transaction } }),
);
</script>
</body></html>`;
}

export async function startWorld(): Promise<World> {
  const bundle = await bundlePage();
  const mock = await startMockServer({ port: 0, clock: 'manual' });
  const api = (method: string, path: string, init?: { body?: unknown; headers?: Record<string, string> }) =>
    call(`${mock.url}${path}`, method, init);

  const sessionRequests: any[] = [];
  const keys = { publicKey: '', foreignPublicKey: '', twoSitePublicKey: '', secretKey: '', customerId: '' };
  /** The transactions the shop's backend started, the only ones its status endpoint answers for. */
  const started = new Set<string>();
  // The shop's backend reads statuses from the anchor (SEP-24), signed in with its own Stellar
  // account (SEP-10), on the mock's clock so that challenges and tokens agree with it.
  const anchor = new AnchorClient({ anchorUrl: mock.backend.urls.anchor, signer: Keypair.random(), now: () => mock.backend.clock.now() });

  // The merchant's site: its page, the widget bundle, and its backend.
  const site = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: String(error) }));
    });
  });
  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', shop);
    if (req.method === 'GET' && url.pathname === '/shop') {
      return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(shopPage(url.searchParams));
    }
    if (req.method === 'GET' && url.pathname === '/blank') {
      // A page of the shop's origin without the widget, for tests that write the element themselves.
      return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>Blank</title>');
    }
    if (req.method === 'GET' && url.pathname.startsWith('/widget/')) {
      const file = bundle.files.get(url.pathname.slice('/widget/'.length));
      if (!file) return void res.writeHead(404).end();
      return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(file);
    }
    if (req.method === 'POST' && url.pathname === '/session') {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      sessionRequests.push(body);
      // The merchant backend opens a session with its secret key (the page never sees it) and
      // starts the transaction at the anchor with the five merchant fields, so that its status
      // endpoint can read it there. `?key=two-site` uses the public key allowed on two sites.
      const publicKey = url.searchParams.get('key') === 'two-site' ? keys.twoSitePublicKey : keys.publicKey;
      const widgetBackend = new WidgetClient({ baseUrl: mock.url, secretKey: keys.secretKey, publicKey });
      const { merchant_id, session_id, session_token } = await widgetBackend.sessions.create({ user_id: keys.customerId });
      const fields = { merchant_id, session_id, session_token, api_key: publicKey, user_id: keys.customerId, amount: body.amount, lang: body.lang };
      const { url: interactiveUrl, id } =
        body.flow === 'sell' ? await anchor.transfers.withdraw(fields) : await anchor.transfers.deposit({ ...fields, account: body.destination });
      started.add(id);
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ url: interactiveUrl, id }));
    }
    if (req.method === 'POST' && url.pathname === '/evil-session') {
      // A merchant backend that hands the widget whatever interactive URL it was given.
      for await (const _ of req);
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ url: url.searchParams.get('url'), id: 'evil-tx' }));
    }
    if (req.method === 'GET' && url.pathname === '/status') {
      const id = url.searchParams.get('id') ?? '';
      if (!started.has(id)) return void res.writeHead(404).end();
      const transaction = await anchor.transfers.get(id);
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ transaction }));
    }
    res.writeHead(404).end();
  }
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const shop = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;

  // The merchant: registered, verified, with a public key for the shop's origin and a secret key.
  const email = `widget-${Date.now()}@example.com`;
  const password = 'correct horse battery';
  const merchant = await api('POST', '/api/v1/merchant/register', {
    body: { name: 'Kofi Shop', legal_name: 'Kofi Shop Ltd', email, password },
  });
  const login = await api('POST', '/api/v1/merchant/login', { body: { email, password } });
  const auth = { authorization: `Bearer ${login.data.access_token}` };
  await api('POST', `/_mock/merchants/${merchant.data.id}/kyb/approve`);
  keys.publicKey = (await api('POST', '/api/v1/merchant/apikeys', { headers: auth, body: { key_type: 'public', domains: [shop] } })).data.key;
  keys.foreignPublicKey = (
    await api('POST', '/api/v1/merchant/apikeys', { headers: auth, body: { key_type: 'public', domains: ['https://elsewhere.example'] } })
  ).data.key;
  keys.twoSitePublicKey = (
    await api('POST', '/api/v1/merchant/apikeys', { headers: auth, body: { key_type: 'public', domains: ['https://elsewhere.example', shop] } })
  ).data.key;
  keys.secretKey = (await api('POST', '/api/v1/merchant/apikeys', { headers: auth, body: { key_type: 'secret', domains: [] } })).data.key;
  await api('PUT', '/api/v1/merchant/widget-config', {
    headers: auth,
    body: {
      theme: { primary_color: '#7c3aed', border_radius: '3px' },
      redirect_url: `${shop}/shop?mode=redirect&session-url=/session&poll-interval=200&api-base=${encodeURIComponent(mock.url)}&data-api-key=${keys.publicKey}`,
    },
  });
  const customer = await api('POST', '/api/v1/widget/customer', {
    headers: { 'X-API-Key': keys.secretKey },
    body: { first_name: 'Ama', last_name: 'Mensah', email_address: 'ama@example.com', mobile_number: '+233241234567' },
  });
  keys.customerId = customer.data.id;

  // A stranger's site: its page posts a forged SEP-24 message and close request to whatever frames it.
  const strangerSite = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' }).end(
      `<script>const id = new URLSearchParams(location.search).get('id');
        parent.postMessage({ transaction: { id, status: 'completed' } }, '*');
        parent.postMessage({ type: 'sikaramp:close', transaction_id: id }, '*');</script>`,
    );
  });
  await new Promise<void>((resolve) => strangerSite.listen(0, '127.0.0.1', resolve));
  const stranger = `http://127.0.0.1:${(strangerSite.address() as AddressInfo).port}`;

  const beacons: string[] = [];
  const hostileSite = createServer((req, res) => {
    const cors = { 'access-control-allow-origin': '*', 'access-control-allow-headers': 'x-api-key' };
    const theme = /^\/theme\/([\w-]+)\/api\/v1\/widget\/config$/.exec(req.url ?? '')?.[1];
    if (req.method === 'OPTIONS') return void res.writeHead(204, cors).end();
    if (req.method === 'GET' && theme) {
      const data = { merchant_id: 'evil', theme: JSON.parse(Buffer.from(theme, 'base64url').toString('utf8')), allowed_coins: ['USDC'] };
      return void res.writeHead(200, { ...cors, 'content-type': 'application/json' }).end(JSON.stringify({ data }));
    }
    beacons.push(req.url ?? '');
    res.writeHead(200, { ...cors, 'content-type': 'image/gif' }).end();
  });
  await new Promise<void>((resolve) => hostileSite.listen(0, '127.0.0.1', resolve));
  const hostile = `http://127.0.0.1:${(hostileSite.address() as AddressInfo).port}`;

  // Chromium's popup blocker on, as customers have it: only a popup opened in a click passes.
  const browser = await launchChromium({ ignoreDefaultArgs: ['--disable-popup-blocking'] });

  return {
    mock,
    shop,
    ...keys,
    sessionRequests,
    freighterChunk: bundle.lazy[0]!,
    stranger,
    hostile,
    beacons,
    browser,
    async open(attributes = {}, options = {}) {
      const context = await browser.newContext();
      // Nothing leaves this machine, even when an attack under test would send it elsewhere.
      await context.route((url) => !['127.0.0.1', 'localhost'].includes(url.hostname), (route) => route.abort());
      const page = await context.newPage();
      const events: RecordedEvent[] = [];
      const requests: string[] = [];
      await page.exposeFunction('recordRampEvent', (event: RecordedEvent) => void events.push(event));
      page.on('request', (request) => void requests.push(request.url()));
      const query = new URLSearchParams();
      const all: Record<string, string | null> = {
        'data-api-key': keys.publicKey,
        'api-base': mock.url,
        'session-url': '/session',
        'poll-interval': '200',
        ...attributes,
      };
      for (const [name, value] of Object.entries(all)) if (value !== null) query.set(name, value);
      if (options.lang) query.set('lang', options.lang);
      if (options.autoOpen) query.set('autoopen', '1');
      if (options.noReferrer) query.set('noreferrer', '1');
      await page.goto(`${shop}/shop?${query}`);
      return { page, events, requests };
    },
    control: (method, path, body) => api(method, `/_mock${path}`, body === undefined ? {} : { body }),
    async close() {
      await browser.close();
      await mock.close();
      await new Promise<void>((resolve) => site.close(() => resolve()));
      await new Promise<void>((resolve) => strangerSite.close(() => resolve()));
      await new Promise<void>((resolve) => hostileSite.close(() => resolve()));
    },
  };
}

export { stellarAccountId };

/** Starts one world for the test file, before its first test, and closes it after the last: `useWorld((w) => (world = w))`. */
export function useWorld(set: (world: World) => void): void {
  let world: World | undefined;
  beforeAll(async () => {
    world = await startWorld();
    set(world);
  }, 60_000);
  afterAll(async () => {
    await world?.close();
  });
}

/** Polls `fn` until its assertion passes, for as long as a flow in the browser may take. */
export const eventually = <T>(fn: () => T | Promise<T>): ReturnType<typeof expect.poll<T>> => expect.poll(fn, { timeout: 30_000, interval: 50 });
