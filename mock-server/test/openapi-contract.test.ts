/**
 * The OpenAPI contract (packages/sdk/src/openapi/) against the mock: the document the mock
 * serves at /_mock/openapi.json is valid OpenAPI 3.1, names every path of the interface
 * documents, and every answer the mock gives in a broad set of flows (every route, successes
 * and failures) and every webhook it sends validate against it with Ajv (JSON Schema 2020-12).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Keypair, TransactionBuilder } from '@stellar/stellar-sdk';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcess, startStandalone, type MockEnv } from './helpers/env.js';

type Json = Record<string, any>;

/**
 * Every route of the interface documents, as their endpoint tables and headings write them
 * (000 section 4, 001 section 4, 002 sections 4 and 9), with the server each is under.
 */
const SPEC_ROUTES = [
  ['post', 'base_url', '/api/v1/merchant/register'],
  ['post', 'base_url', '/api/v1/merchant/login'],
  ['post', 'base_url', '/api/v1/merchant/apikeys'],
  ['delete', 'base_url', '/api/v1/merchant/apikeys/{id}'],
  ['get', 'base_url', '/api/v1/merchant/profile'],
  ['post', 'base_url', '/api/v1/merchant/kyb/submit'],
  ['get', 'base_url', '/api/v1/merchant/kyb/status'],
  ['put', 'base_url', '/api/v1/merchant/widget-config'],
  ['get', 'base_url', '/api/v1/merchant/orders'],
  ['get', 'base_url', '/api/v1/widget/config'],
  ['post', 'base_url', '/api/v1/widget/session'],
  ['post', 'base_url', '/api/v1/widget/customer'],
  ['get', 'base_url', '/api/v1/widget/customer/{id}'],
  ['delete', 'base_url', '/api/v1/widget/customer/{id}'],
  ['post', 'base_url', '/api/v1/widget/withdraw/interactive'],
  ['post', 'base_url', '/api/v1/widget/deposit/interactive'],
  ['get', 'anchor_url', '/auth'],
  ['post', 'anchor_url', '/auth'],
  ['put', 'anchor_url', '/customer'],
  ['get', 'anchor_url', '/customer'],
  ['delete', 'anchor_url', '/customer/{id}'],
  ['post', 'anchor_url', '/transactions/deposit/interactive'],
  ['post', 'anchor_url', '/transactions/withdraw/interactive'],
  ['get', 'anchor_url', '/transaction'],
  ['post', 'ramp_base_url', '/api/v1/ramp/kyc/initiate'],
  ['post', 'ramp_base_url', '/api/v1/ramp/kyc/verify'],
  ['post', 'ramp_base_url', '/api/v1/ramp/orders'],
  ['get', 'ramp_base_url', '/api/v1/ramp/orders/{reference}'],
  ['post', 'checkout_base_url', '/api/v1/developer/payments'],
  ['get', 'checkout_base_url', '/api/v1/developer/payments/{sessionRef}'],
  ['post', 'gateway_url', '/api/v1/payments/initiate'],
  ['get', 'gateway_url', '/api/v1/widget/session/{sessionRef}'],
] as const;

interface Operation {
  method: string;
  path: string;
  /** Matches a full request URL of this operation, with the mock's server URL. */
  pattern: RegExp;
  responses: Json;
}

/** The document's operations, and a validator of answers and webhooks against it. */
function contractOf(document: Json) {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  // ajv-formats is CommonJS: its function is also its `default`, which is how NodeNext types it.
  addFormats.default(ajv);
  ajv.addSchema(document, 'openapi.json');
  const serverUrl = (servers: Json[]) => servers[0]!.url.replace(/\{(\w+)\}/g, (_: string, name: string) => servers[0]!.variables[name].default);
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries<Json>(document.paths)) {
    const base = serverUrl(item.servers ?? document.servers);
    const pattern = new RegExp(`^${escape(base)}${path.split(/\{\w+\}/).map(escape).join('[^/]+')}$`);
    for (const method of ['get', 'post', 'put', 'delete']) {
      if (item[method]) operations.push({ method, path, pattern, responses: item[method].responses });
    }
  }
  const pointer = (...parts: string[]) => `openapi.json#/${parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`;
  const problems = (ref: string, value: unknown) => {
    const validate = ajv.getSchema(ref)!;
    return validate(value) ? [] : ajv.errorsText(validate.errors, { separator: '\n' }).split('\n');
  };
  /** Keys `<method> <path> <status>` of the answers validated, with how many times. */
  const seen = new Map<string, number>();
  return {
    operations,
    seen,
    /** Problems of one answer: undocumented route or status, wrong media type, a body off its schema. */
    check(method: string, url: string, status: number, contentType: string, body: unknown): string[] {
      const matching = operations.filter((op) => op.method === method.toLowerCase() && op.pattern.test(url.split('?')[0]!));
      if (matching.length !== 1) return [`${method} ${url}: ${matching.length} operations match`];
      const op = matching[0]!;
      const key = `${op.method} ${op.path} ${status}`;
      seen.set(key, (seen.get(key) ?? 0) + 1);
      const response = op.responses[status];
      if (!response) return [`${key}: status not documented`];
      const [mediaType] = Object.keys(response.content);
      if (!contentType.startsWith(mediaType!)) return [`${key}: ${contentType}, documented ${mediaType}`];
      return problems(pointer('paths', op.path, op.method, 'responses', String(status), 'content', mediaType!, 'schema'), body).map((p) => `${key}: ${p}`);
    },
    checkWebhook(name: string, headers: Record<string, unknown>, body: unknown): string[] {
      const operation = document.webhooks[name].post;
      const missing = operation.parameters.filter((p: Json) => p.required && headers[p.name.toLowerCase()] === undefined).map((p: Json) => `webhook ${name}: no ${p.name}`);
      return [...missing, ...problems(pointer('webhooks', name, 'post', 'requestBody', 'content', 'application/json', 'schema'), body).map((p) => `webhook ${name}: ${p}`)];
    },
  };
}

type Contract = ReturnType<typeof contractOf>;

describe('GET /_mock/openapi.json', () => {
  it('serves the same document in-process, with that backend\'s URLs as the server defaults', async () => {
    const env = await startInProcess({ anchorUrl: 'https://anchor.example.test/sep' });
    try {
      const res = await fetch(`${env.origin}/_mock/openapi.json`);
      expect(res.status).toBe(200);
      const document = await res.json();
      expect(document.openapi).toBe('3.1.0');
      expect(document.servers[0].variables.base_url.default).toBe(env.origin);
      expect(document.paths['/auth'].servers[0].variables.anchor_url.default).toBe('https://anchor.example.test/sep');
      expect(document.paths['/.well-known/stellar.toml'].servers[0].variables.anchor_origin.default).toBe('https://anchor.example.test');
    } finally {
      await env.close();
    }
  });
});

describe('the OpenAPI contract against the standalone mock (127.0.0.1)', () => {
  let env: MockEnv;
  let document: Json;
  let contract: Contract;
  const problems: string[] = [];
  const received: { headers: Record<string, unknown>; body: string }[] = [];
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end();
    });
  });
  let hookUrl = '';

  beforeAll(async () => {
    env = await startStandalone();
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    const res = await fetch(`${env.origin}/_mock/openapi.json`);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    document = await res.json();
    contract = contractOf(document);
  });
  afterAll(async () => {
    await env.close();
    await new Promise((resolve) => receiver.close(resolve));
  });

  /** A call to the mock whose answer is checked against the document; returns status and body. */
  async function api(method: string, path: string, init: { body?: unknown; headers?: Record<string, string> } = {}) {
    const headers: Record<string, string> = { ...init.headers };
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${env.origin}${path}`, { method, headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
    const contentType = res.headers.get('content-type') ?? '';
    const text = await res.text();
    const body = contentType.startsWith('application/json') ? JSON.parse(text) : text;
    problems.push(...contract.check(method, `${env.origin}${path}`, res.status, contentType, body));
    return { status: res.status, body };
  }
  /** A control call (not part of the contract). */
  async function control(method: string, path: string, body?: unknown) {
    const res = await fetch(`${env.origin}/_mock${path}`, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    expect(res.ok, `${path}: ${text}`).toBe(true);
    return text ? JSON.parse(text) : undefined;
  }
  const expectStatus = (res: { status: number; body: unknown }, status: number) => expect(res.status, JSON.stringify(res.body)).toBe(status);

  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(structuredClone(document));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('refuses an answer off the document, and takes a value an open enum does not know yet', () => {
    const url = `${env.origin}/api/v1/widget/customer/cus_1`;
    const meta = { request_id: 'req_1', timestamp: '2026-01-01T00:00:00.000Z' };
    const customer = (status: unknown) => ({ data: { id: 'cus_1', status }, meta });
    expect(contract.check('GET', url, 200, 'application/json', customer('ON_HOLD'))).toEqual([]);
    expect(contract.check('GET', url, 200, 'application/json', customer(42)).length).toBeGreaterThan(0);
    expect(contract.check('GET', url, 200, 'application/json', { data: { status: 'ACCEPTED' }, meta })).toEqual([expect.stringContaining("must have required property 'id'")]);
    expect(contract.check('GET', url, 418, 'application/json', {})).toEqual(['get /api/v1/widget/customer/{id} 418: status not documented']);
    expect(contract.check('GET', url, 404, 'application/json', { error: 'text' }).length).toBeGreaterThan(0);
    expect(contract.check('PATCH', url, 200, 'application/json', {})).toEqual([`PATCH ${url}: 0 operations match`]);
    contract.seen.clear();
  });

  it('names every route of the interface documents, under its server', () => {
    for (const [method, server, path] of SPEC_ROUTES) {
      const item = document.paths[path];
      expect(item?.[method], `${method} ${path}`).toBeDefined();
      const servers = item.servers ?? document.servers;
      expect(Object.keys(servers[0].variables), `${method} ${path}`).toEqual([server]);
    }
  });

  it('the merchant dashboard answers as documented', async () => {
    const email = 'contract@shop.example';
    expectStatus(await api('POST', '/api/v1/merchant/register', { body: { name: 'Shop', legal_name: 'Shop Ltd', email, password: 'correct horse battery' } }), 201);
    expectStatus(await api('POST', '/api/v1/merchant/register', { body: { name: 'Shop', legal_name: 'Shop Ltd', email, password: 'correct horse battery' } }), 400);
    expectStatus(await api('POST', '/api/v1/merchant/register', { body: { name: '' } }), 400);
    expectStatus(await api('POST', '/api/v1/merchant/login', { body: { email, password: 'wrong password' } }), 401);
    const login = await api('POST', '/api/v1/merchant/login', { body: { email, password: 'correct horse battery' } });
    const auth = { authorization: `Bearer ${login.body.data.access_token}` };
    expectStatus(await api('GET', '/api/v1/merchant/profile'), 401);
    expectStatus(await api('GET', '/api/v1/merchant/profile', { headers: auth }), 200);
    const key = await api('POST', '/api/v1/merchant/apikeys', { headers: auth, body: { key_type: 'public', domains: ['https://shop.example'] } });
    expectStatus(key, 201);
    expectStatus(await api('POST', '/api/v1/merchant/apikeys', { headers: auth, body: { key_type: 'neither' } }), 400);
    expectStatus(await api('DELETE', `/api/v1/merchant/apikeys/${key.body.data.api_key.id}`, { headers: auth }), 200);
    expectStatus(await api('DELETE', '/api/v1/merchant/apikeys/no-such-key', { headers: auth }), 404);
    expectStatus(await api('GET', '/api/v1/merchant/kyb/status', { headers: auth }), 200);
    const kyb = { registration_number: 'CS123456789', country: 'GHA', documents: [{ type: 'certificate', url: 'https://docs.example/c.pdf' }] };
    expectStatus(await api('POST', '/api/v1/merchant/kyb/submit', { headers: auth, body: kyb }), 200);
    expectStatus(await api('POST', '/api/v1/merchant/kyb/submit', { headers: auth, body: { country: 'Ghana' } }), 400);
    expectStatus(await api('PUT', '/api/v1/merchant/widget-config', { headers: auth, body: { theme: { primary_color: '#0f766e' } } }), 200);
    expectStatus(await api('PUT', '/api/v1/merchant/widget-config', { headers: auth, body: { theme: { primary_color: 'teal' } } }), 400);
    expectStatus(await api('GET', '/api/v1/merchant/orders?limit=20', { headers: auth }), 200);
    expectStatus(await api('GET', '/api/v1/merchant/orders?limit=0', { headers: auth }), 400);
    expectStatus(await api('GET', '/api/v1/merchant/webhook', { headers: auth }), 200);
    expectStatus(await api('PUT', '/api/v1/merchant/webhook', { headers: auth, body: { url: hookUrl } }), 200);
    expectStatus(await api('PUT', '/api/v1/merchant/webhook', { headers: auth, body: { url: 'not a url' } }), 400);
    expectStatus(await api('POST', '/api/v1/merchant/webhook/rotate', { headers: auth }), 200);
  });

  it('the widget backend and the anchor answer as documented', async () => {
    const shop = await control('POST', '/fixtures/merchant', { webhook_url: hookUrl, domains: ['https://shop.example'] });
    const key = { 'x-api-key': shop.secret_key };
    expectStatus(await api('GET', '/api/v1/widget/config', { headers: key }), 200);
    expectStatus(await api('GET', '/api/v1/widget/config', { headers: { 'x-api-key': 'xx_secret_0000' } }), 401);
    expectStatus(await api('GET', '/api/v1/widget/config', { headers: { 'x-api-key': shop.public_key, origin: 'https://elsewhere.example' } }), 403);
    const limited = await api('POST', '/api/v1/merchant/apikeys', { headers: { authorization: `Bearer ${shop.access_token}` }, body: { key_type: 'secret', rate_limit_rpm: 1 } });
    expectStatus(await api('GET', '/api/v1/widget/config', { headers: { 'x-api-key': limited.body.data.key } }), 200);
    expectStatus(await api('GET', '/api/v1/widget/config', { headers: { 'x-api-key': limited.body.data.key } }), 429);
    const person = { first_name: 'Ama', last_name: 'Mensah', email_address: 'ama@example.com' };
    const created = await api('POST', '/api/v1/widget/customer', { headers: key, body: person });
    expectStatus(created, 201);
    expectStatus(await api('POST', '/api/v1/widget/customer', { headers: key, body: { ...person, city: 'Accra' } }), 200);
    expectStatus(await api('POST', '/api/v1/widget/customer', { headers: key, body: { first_name: 'Ama' } }), 400);
    const customerId = created.body.data.id;
    expectStatus(await api('GET', `/api/v1/widget/customer/${customerId}`, { headers: key }), 200);
    expectStatus(await api('GET', '/api/v1/widget/customer/no-such-customer', { headers: key }), 404);
    const { id: userId } = await control('POST', '/fixtures/customer', { secret_key: shop.secret_key });
    const session = await api('POST', '/api/v1/widget/session', { headers: key, body: { user_id: userId } });
    expectStatus(session, 201);
    expectStatus(await api('POST', '/api/v1/widget/session', { headers: key, body: {} }), 400);
    const interactive = { asset_code: 'USDC', user_id: userId, api_key: shop.public_key };
    const buy = await api('POST', '/api/v1/widget/deposit/interactive', { headers: key, body: { ...interactive, fiat_amount: 150, destination_address: Keypair.random().publicKey() } });
    expectStatus(buy, 200);
    expectStatus(await api('POST', '/api/v1/widget/withdraw/interactive', { headers: key, body: { ...interactive, onchain_amount: 10 } }), 200);
    expectStatus(await api('POST', '/api/v1/widget/withdraw/interactive', { headers: key, body: { ...interactive, user_id: undefined } }), 400);

    // The customer's confirmation, after the phone passed OTP on the interactive page.
    const html = await (await fetch(buy.body.data.url)).text();
    const page = JSON.parse(html.match(/<script type="application\/json" id="ramp-config">(.*?)<\/script>/s)![1]!);
    const phone = '+233201234567';
    const pagePost = (path: string, body: unknown) =>
      fetch(`${page.api}/${path}`, { method: 'POST', headers: { authorization: `Bearer ${page.token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await pagePost('otp', { phone })).status).toBe(200);
    const { code } = await control('GET', `/otp?phone=${encodeURIComponent(phone)}`);
    expect((await pagePost('verify', { phone, code })).status).toBe(200);
    const orderHeaders = { ...key, 'x-session-id': session.body.data.session_id, 'x-session-token': session.body.data.session_token, 'x-idempotency-key': crypto.randomUUID() };
    const order = { transaction_id: buy.body.data.id, provider: 'mtn', phone };
    expectStatus(await api('POST', '/api/v1/widget/orders', { headers: orderHeaders, body: order }), 201);
    expectStatus(await api('POST', '/api/v1/widget/orders', { headers: orderHeaders, body: order }), 409);
    // The customer declines the Mobile Money prompt: the order.failed webhook.
    await control('POST', `/mobile-money/${buy.body.data.id}/decline`);
    const unverified = await api('POST', '/api/v1/widget/deposit/interactive', { headers: key, body: { ...interactive, fiat_amount: 150, destination_address: Keypair.random().publicKey() } });
    const other = { ...orderHeaders, 'x-idempotency-key': crypto.randomUUID() };
    expectStatus(await api('POST', '/api/v1/widget/orders', { headers: other, body: { ...order, transaction_id: unverified.body.data.id, phone: '+233209999999' } }), 422);

    // The anchor: SEP-1, SEP-10, SEP-12, SEP-24, SEP-38.
    expectStatus(await api('GET', '/.well-known/stellar.toml'), 200);
    const wallet = Keypair.random();
    expectStatus(await api('GET', '/anchor/auth?account=nobody'), 400);
    const challenge = await api('GET', `/anchor/auth?account=${wallet.publicKey()}`);
    expectStatus(challenge, 200);
    const tx = TransactionBuilder.fromXDR(challenge.body.transaction, challenge.body.network_passphrase);
    expectStatus(await api('POST', '/anchor/auth', { body: { transaction: tx.toXDR() } }), 400);
    tx.sign(wallet);
    const signedIn = await api('POST', '/anchor/auth', { body: { transaction: tx.toXDR() } });
    expectStatus(signedIn, 200);
    expectStatus(await api('POST', '/anchor/auth', { body: {} }), 400);
    const bearer = { authorization: `Bearer ${signedIn.body.token}` };
    expectStatus(await api('GET', '/anchor/customer?id=x'), 403);
    const put = await api('PUT', '/anchor/customer', { headers: bearer, body: { ...person, email_address: 'kofi@example.com' } });
    expectStatus(put, 202);
    expectStatus(await api('PUT', '/anchor/customer', { headers: bearer, body: { first_name: '' } }), 400);
    expectStatus(await api('GET', `/anchor/customer?id=${put.body.id}`, { headers: bearer }), 200);
    expectStatus(await api('GET', '/anchor/customer?id=no-such-customer', { headers: bearer }), 404);
    expectStatus(await api('DELETE', `/anchor/customer/${put.body.id}`, { headers: bearer }), 200);
    expectStatus(await api('DELETE', `/anchor/customer/${put.body.id}`, { headers: bearer }), 404);
    expectStatus(await api('GET', '/anchor/info'), 200);
    const deposit = await api('POST', '/anchor/transactions/deposit/interactive', { headers: bearer, body: { asset_code: 'USDC', amount: '150' } });
    expectStatus(deposit, 200);
    expectStatus(await api('POST', '/anchor/transactions/withdraw/interactive', { headers: bearer, body: { asset_code: 'USDC', amount: '10' } }), 200);
    expectStatus(await api('POST', '/anchor/transactions/deposit/interactive', { headers: bearer, body: { asset_code: 'EURC' } }), 400);
    expectStatus(await api('GET', `/anchor/transaction?id=${deposit.body.id}`, { headers: bearer }), 200);
    expectStatus(await api('GET', '/anchor/transaction?id=no-such-transaction', { headers: bearer }), 404);
    expectStatus(await api('GET', '/anchor/transactions?asset_code=USDC', { headers: bearer }), 200);
    const info = await api('GET', '/anchor/sep38/info');
    expectStatus(info, 200);
    const usdc = info.body.assets.find((a: Json) => a.asset.startsWith('stellar:USDC:')).asset;
    expectStatus(await api('GET', '/anchor/sep38/prices?sell_asset=iso4217:GHS&sell_amount=100'), 200);
    expectStatus(await api('GET', '/anchor/sep38/prices?sell_asset=GHS'), 400);
    const price = `sell_asset=iso4217:GHS&buy_asset=${usdc}&sell_amount=100&sell_delivery_method=mobile_money&context=sep24`;
    expectStatus(await api('GET', `/anchor/sep38/price?${price}`), 200);
    const quote = await api('POST', '/anchor/sep38/quote', { headers: bearer, body: { sell_asset: 'iso4217:GHS', buy_asset: usdc, sell_amount: '100', sell_delivery_method: 'mobile_money', context: 'sep24' } });
    expectStatus(quote, 201);
    expectStatus(await api('GET', `/anchor/sep38/quote/${quote.body.id}`, { headers: bearer }), 200);
    expectStatus(await api('GET', '/anchor/sep38/quote/no-such-quote', { headers: bearer }), 404);
    expectStatus(await api('DELETE', `/api/v1/widget/customer/${customerId}`, { headers: key }), 200);
  });

  it('the ramp order API answers as documented', async () => {
    const shop = await control('POST', '/fixtures/merchant', { webhook_url: hookUrl });
    const auth = { authorization: `Bearer ${shop.secret_key}` };
    const user = { first_name: 'Ama', last_name: 'Mensah', phone: '0241234567', provider_name: 'MTN' };
    const kyc = await api('POST', '/api/v1/ramp/kyc/initiate', { headers: auth, body: user });
    expectStatus(kyc, 201);
    expectStatus(await api('POST', '/api/v1/ramp/kyc/initiate', { body: user }), 401);
    expectStatus(await api('POST', '/api/v1/ramp/kyc/verify', { headers: auth, body: { kyc_id: kyc.body.data.kyc_id, otp_code: '000000' } }), 422);
    const { code } = await control('GET', `/otp?phone=${user.phone}`);
    expectStatus(await api('POST', '/api/v1/ramp/kyc/verify', { headers: auth, body: { kyc_id: kyc.body.data.kyc_id, otp_code: code } }), 200);
    const rampUser = { first_name: 'Ama', last_name: 'Mensah', phone: user.phone, network: 'MTN' };
    const onramp = { type: 'onramp', fiat_amount: 100, payment_method: 'mobile_money', destination_wallet: Keypair.random().publicKey(), user: rampUser };
    const idempotency = { ...auth, 'x-idempotency-key': crypto.randomUUID() };
    const buy = await api('POST', '/api/v1/ramp/orders', { headers: idempotency, body: onramp });
    expectStatus(buy, 201);
    expectStatus(await api('POST', '/api/v1/ramp/orders', { headers: idempotency, body: onramp }), 409);
    expectStatus(await api('POST', '/api/v1/ramp/orders', { headers: auth, body: onramp }), 400);
    expectStatus(await api('POST', '/api/v1/ramp/orders', { headers: { ...auth, 'x-idempotency-key': crypto.randomUUID() }, body: { ...onramp, user: { ...rampUser, phone: '0209999999' } } }), 422);
    expectStatus(await api('GET', `/api/v1/ramp/orders/${buy.body.data.reference}`, { headers: auth }), 200);
    expectStatus(await api('GET', '/api/v1/ramp/orders/RMP-00000000-none', { headers: auth }), 404);
    // The Mobile Money prompt approved: the fiat leg's payment.completed webhook.
    await control('POST', `/mobile-money/${buy.body.data.reference}/approve`);
    const sell = await api('POST', '/api/v1/ramp/orders', { headers: { ...auth, 'x-idempotency-key': crypto.randomUUID() }, body: { type: 'offramp', fiat_amount: 50, payment_method: 'mobile_money', user: rampUser } });
    expectStatus(sell, 201);
    expectStatus(await api('POST', `/api/v1/ramp/orders/${sell.body.data.reference}/confirm`, { headers: auth, body: { source_wallet: 'nowhere' } }), 400);
    expectStatus(await api('POST', `/api/v1/ramp/orders/${sell.body.data.reference}/confirm`, { headers: auth, body: { source_wallet: Keypair.random().publicKey() } }), 200);
    const third = await api('POST', '/api/v1/ramp/orders', { headers: { ...auth, 'x-idempotency-key': crypto.randomUUID() }, body: { type: 'offramp', fiat_amount: 20, payment_method: 'mobile_money', user: rampUser } });
    expectStatus(await api('POST', `/api/v1/ramp/orders/${third.body.data.reference}/cancel`, { headers: auth }), 200);
    expectStatus(await api('POST', `/api/v1/ramp/orders/${third.body.data.reference}/cancel`, { headers: auth }), 409);
  });

  it('checkout and the gateway routes answer as documented', async () => {
    const org = await control('POST', '/fixtures/checkout', { webhook_url: hookUrl });
    const auth = { authorization: `Bearer ${org.key}` };
    const payment = { type: 'checkout', amount: 10_000, currency: 'GHS', recipient: { name: 'Ama Mensah', email: 'ama@example.com' }, redirect_url: 'https://shop.example/return' };
    const once = { ...auth, 'idempotency-key': crypto.randomUUID() };
    const created = await api('POST', '/api/v1/developer/payments', { headers: once, body: payment });
    expectStatus(created, 201);
    expectStatus(await api('POST', '/api/v1/developer/payments', { headers: once, body: payment }), 200);
    expectStatus(await api('POST', '/api/v1/developer/payments', { headers: once, body: { ...payment, amount: 20_000 } }), 409);
    expectStatus(await api('POST', '/api/v1/developer/payments', { body: payment }), 401);
    expectStatus(await api('POST', '/api/v1/developer/payments', { headers: auth, body: [] }), 400);
    await control('POST', `/checkout/${created.body.data.reference}/complete`, { status: 'completed' });
    expectStatus(await api('GET', `/api/v1/developer/payments/${created.body.data.session_id}`), 200);
    expectStatus(await api('GET', '/api/v1/developer/payments/no-such-session'), 404);
    expectStatus(await api('GET', '/api/v1/developer/payments/%20'), 400);
    expectStatus(await api('GET', '/api/v1/developer/transactions?limit=10', { headers: auth }), 200);
    expectStatus(await api('GET', '/api/v1/developer/transactions?limit=1000', { headers: auth }), 400);
    const endpoint = await api('POST', '/api/v1/developer/webhooks', { headers: auth, body: { url: `${hookUrl}/second` } });
    expectStatus(endpoint, 201);
    expectStatus(await api('POST', '/api/v1/developer/webhooks', { headers: auth, body: { url: 'ftp://x' } }), 400);
    expectStatus(await api('GET', '/api/v1/developer/webhooks', { headers: auth }), 200);
    expectStatus(await api('DELETE', `/api/v1/developer/webhooks/${endpoint.body.data.id}`, { headers: auth }), 200);
    expectStatus(await api('DELETE', `/api/v1/developer/webhooks/${endpoint.body.data.id}`, { headers: auth }), 404);
    const event = received.find((r) => r.headers['x-svc-event-id'] !== undefined)!;
    expect(event, 'the payment.succeeded delivery').toBeDefined();
    expectStatus(await api('POST', `/api/v1/developer/webhooks/events/${event.headers['x-svc-event-id']}/retry`, { headers: auth }), 200);
    expectStatus(await api('POST', '/api/v1/developer/webhooks/events/no-such-event/retry', { headers: auth }), 404);

    const initiated = await api('POST', '/gateway/api/v1/payments/initiate', { headers: auth, body: payment });
    expectStatus(initiated, 201);
    expectStatus(await api('POST', '/gateway/api/v1/payments/initiate', { body: payment }), 401);
    expectStatus(await api('GET', `/gateway/api/v1/widget/session/${initiated.body.data.session_id}`), 200);
    expectStatus(await api('GET', '/gateway/api/v1/widget/session/no-such-session'), 404);

    // The gateway failing: a 502 at the checkout routes, its own 429 at the earlier routes.
    await control('POST', '/checkout/gateway/faults', { status: 429, count: 2 });
    expectStatus(await api('POST', '/api/v1/developer/payments', { headers: auth, body: payment }), 502);
    expectStatus(await api('GET', `/gateway/api/v1/widget/session/${initiated.body.data.session_id}`), 429);
  });

  it('every answer above, and every webhook sent, is as the document says; every route was called', async () => {
    await control('GET', '/webhooks');
    for (const { headers, body } of received) {
      const parsed = JSON.parse(body);
      const name = headers['x-svc-event-id'] !== undefined ? 'checkoutPayment' : String(parsed.event).startsWith('order.') ? 'order' : 'rampPayment';
      problems.push(...contract.checkWebhook(name, headers, parsed));
    }
    expect(problems).toEqual([]);
    const called = new Set([...contract.seen.keys()].map((key) => key.split(' ').slice(0, 2).join(' ')));
    const missing = contract.operations.map((op) => `${op.method} ${op.path}`).filter((op) => !called.has(op));
    expect(missing).toEqual([]);
    const kinds = new Set(received.map(({ headers, body }) => (headers['x-svc-event-id'] !== undefined ? 'checkout' : JSON.parse(body).event)));
    expect([...kinds].sort()).toEqual(['checkout', 'order.failed', 'payment.completed']);
  });
});
