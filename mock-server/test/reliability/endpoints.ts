/**
 * Every endpoint of the mock server as data, for the bad-input suite: how to reach it with a
 * valid request (path, credential, headers, a valid body), and which values of each field,
 * query parameter, path parameter and header it must refuse with 400 (`bad`) or may take or
 * refuse as documented (`odd`: unicode, huge, fractional, unknown ids).
 */
import fc from 'fast-check';
import { usdcAsset } from '../../src/transactions.js';
import type { Style } from './harness.js';
import { badAmount, blank, deep, longer, nastyString, not, oddAmount, raw, unknownId } from './values.js';
import { WALLET, type World } from './world.js';

export interface FieldSpec {
  /** Leaving it out is refused with 400. */
  required?: boolean;
  /** Values refused with 400. */
  bad?: fc.Arbitrary<unknown>;
  /** Values that may be taken or refused as documented, never with a 500. */
  odd?: fc.Arbitrary<unknown>;
}

export interface QuerySpec {
  required?: boolean;
  bad?: fc.Arbitrary<string>;
  odd?: fc.Arbitrary<string>;
}

export interface AuthSpec {
  header: 'authorization' | 'x-api-key';
  /** The valid header value. */
  value: (w: World) => string;
  /** Status for a missing or unknown credential. */
  refused: number;
  /** Real credentials of another kind, and the status each gets. */
  others?: (w: World) => [string, number][];
}

export interface Endpoint {
  /** `METHOD /path`, as the test names it. */
  name: string;
  style: Style;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path with its valid query; `id` replaces the path parameter. */
  path: (w: World, id?: string) => string;
  /** The statuses a path parameter that names nothing gets. */
  param?: number[];
  auth?: AuthSpec;
  /** A header every valid request carries with a fresh value (a required idempotency key). */
  freshHeader?: string;
  /** Headers every valid request carries besides the credential (a widget session). */
  headers?: (w: World) => Record<string, string>;
  /** Header values refused with 400. */
  badHeaders?: Record<string, fc.Arbitrary<string>>;
  body?: {
    valid: (w: World) => fc.Arbitrary<Record<string, unknown>>;
    /** By dotted path (`user.phone`, `documents.0.url`). */
    fields: Record<string, FieldSpec>;
    /** An empty body (or `{}`) is a valid request. */
    optional?: boolean;
    /** `{}` is refused even though no single field is required. */
    emptyRefused?: boolean;
    /** JSON, form-urlencoded and multipart are all read (the SEP convention). */
    forms?: boolean;
    /** The body is a form (the hosted checkout page), not JSON. */
    form?: boolean;
    /** A body sent as anything but `application/json` is 415 (the ramp API, 001 section 4). */
    jsonOnly?: boolean;
  };
  query?: Record<string, QuerySpec>;
  /** Status of a refused query value (400, or 404 for a page's token). */
  queryRefused?: number;
  /** Statuses of a success. */
  ok: number[];
  /** Refusals an odd value may meet besides 400 (and the credential's). */
  refusals?: number[];
  /** Status of a refused body field, when it is not 400: 502 where the gateway checks the fields (002 section 7). */
  fieldRefused?: number;
  /** What the valid request answers in the world, when it is not a success (e.g. a step that needs an OTP first). */
  baseline?: number;
  /** Refusals that count something on purpose (wrong OTP tries): that counter is left out of the comparison. */
  countsTries?: boolean;
}

// Field kinds used across the surfaces.
const text = (max = 200): FieldSpec => ({ required: true, bad: fc.oneof(not('string'), blank, longer(max)), odd: nastyString });
const optionalText = (max = 200): FieldSpec => ({ bad: fc.oneof(not('string'), blank, longer(max)), odd: nastyString });
const email: FieldSpec = { required: true, bad: fc.oneof(not('string'), fc.constantFrom('', 'not-an-email', 'a@', '@b.example', 'a b@c.example')), odd: nastyString };
const httpUrl = (required = true): FieldSpec => ({
  required,
  bad: fc.oneof(not('string'), fc.constantFrom('', 'not a url', 'ftp://files.example/x', 'javascript:alert(1)', 'http://', '//no-scheme.example')),
  odd: fc.oneof(nastyString, fc.constantFrom('https://shop.example/ü?x=🙂', `https://shop.example/${'x'.repeat(3_000)}`)),
});
const stellarAccount = (required = false): FieldSpec => ({
  required,
  bad: fc.oneof(not('string'), fc.constantFrom('', 'GABC', WALLET.secret(), `${WALLET.publicKey()}X`, WALLET.publicKey().toLowerCase())),
  odd: nastyString,
});
const amount = (required = false): FieldSpec => ({ required, bad: badAmount, odd: oddAmount });
// Any RFC 4646 tag is taken (SEP-24), a language the page lacks falling back to en.
const lang: FieldSpec = { bad: fc.oneof(not('string'), fc.constantFrom('ẽn', 'en-', 'en GB', 'fr--GH', 'abcdefghi', '')) };
const sixDigits = fc.integer({ min: 0, max: 999_999 }).map((n) => String(n).padStart(6, '0'));
const otpCode: FieldSpec = { required: true, bad: fc.oneof(not('string'), fc.constantFrom('', '12345', '1234567', 'abcdef', '12 456')), odd: sixDigits };
const localPhone: FieldSpec = { required: true, bad: fc.oneof(not('string'), fc.constantFrom('', '241234567', '+233241234567', '02412345678', '0241-23456')), odd: nastyString };
const provider: FieldSpec = { required: true, bad: fc.oneof(not('string'), fc.constantFrom('', 'vodafone', 'mt', 'MTN Mobile Money Ghana')), odd: nastyString };
const intlPhone: FieldSpec = { required: true, bad: fc.oneof(not('string'), longer(40)), odd: fc.oneof(nastyString, fc.constantFrom('+233201234567', '0201234567', '00233201234567', '+1', '+1234567890123456')) };

const limitText = fc.constantFrom('0', '-1', '1.5', 'abc', '', '9999999999999999999999');
const isoBad = fc.constantFrom('yesterday', '2026-13-45', '20260101', '2026-01-01T99:99', 'NaN');

const dashboard: AuthSpec = {
  header: 'authorization',
  value: (w) => w.dashboard.authorization!,
  refused: 401,
  others: (w) => [
    [`Bearer ${w.secretKey}`, 401],
    [`Bearer ${w.sep10}`, 401],
  ],
};
const secretKey = (header: AuthSpec['header']): AuthSpec => ({
  header,
  value: (w) => (header === 'authorization' ? `Bearer ${w.secretKey}` : w.secretKey),
  refused: 401,
  others: (w) => [
    [header === 'authorization' ? `Bearer ${w.publicKey}` : w.publicKey, 403],
    [header === 'authorization' ? w.dashboard.authorization! : `Bearer ${w.secretKey}`, 401],
  ],
});
const sep10: AuthSpec = { header: 'authorization', value: (w) => `Bearer ${w.sep10}`, refused: 403, others: (w) => [[w.dashboard.authorization!, 403]] };
const pageToken = (of: 'deposit' | 'withdrawal'): AuthSpec => ({
  header: 'authorization',
  value: (w) => `Bearer ${w[of].pageToken}`,
  refused: 401,
  others: (w) => [[`Bearer ${w.sep10}`, 401]],
});
const checkoutKey: AuthSpec = { header: 'authorization', value: (w) => `Bearer ${w.checkout.key}`, refused: 401, others: (w) => [[`Bearer ${w.secretKey}`, 401]] };

const customerFields: Record<string, FieldSpec> = {
  first_name: text(),
  last_name: text(),
  email_address: email,
  birth_date: { bad: fc.oneof(not('string'), fc.constantFrom('2024-02-30', '2024-1-1', '01/02/2000', '')) },
  address: optionalText(),
  city: optionalText(),
  state_or_province: optionalText(),
  postal_code: optionalText(20),
  address_country_code: { bad: fc.oneof(not('string'), fc.constantFrom('gha', 'GH', 'GHAN', '')) },
  mobile_number: { bad: fc.oneof(not('string'), fc.constantFrom('0241234567', '+12', '+233 20 123 4567', '')) },
};
const validCustomer = fc.record({
  first_name: fc.constantFrom('Kofi', 'Yaa'),
  last_name: fc.constantFrom('Boateng', 'Processing', 'NeedsInfo', 'Rejected'),
  email_address: fc.constantFrom('kofi@example.com', 'yaa@example.com'),
});

const interactiveFields = (amountField: 'fiat_amount' | 'onchain_amount'): Record<string, FieldSpec> => ({
  asset_code: { required: true, bad: fc.oneof(not('string'), fc.constantFrom('', 'BTC', 'usdc', 'USDC ')) },
  user_id: { required: true, bad: fc.oneof(not('string'), blank, longer(100)), odd: fc.oneof(nastyString, unknownId) },
  api_key: { required: true, bad: fc.oneof(not('string'), blank, longer(200)), odd: nastyString },
  lang,
  // Odd amounts include ones outside the limits: refused with 422 and nothing left behind.
  [amountField]: { bad: badAmount, odd: oddAmount },
  ...(amountField === 'fiat_amount' ? { destination_address: stellarAccount() } : {}),
});

const sepInteractiveFields: Record<string, FieldSpec> = {
  asset_code: { required: true, bad: fc.oneof(not('string'), fc.constantFrom('', 'BTC', 'usdc')) },
  account: stellarAccount(),
  amount: { bad: fc.oneof(badAmount, fc.constantFrom('abc', '1.12345678', '-5', '1e3', '')), odd: fc.oneof(oddAmount, fc.constantFrom('10', '0.5', '99999999')) },
  merchant_id: { bad: fc.oneof(not('string'), blank, longer(200)), odd: fc.oneof(nastyString, unknownId) },
  session_id: { bad: fc.oneof(not('string'), blank, longer(200)), odd: unknownId },
  session_token: { bad: fc.oneof(not('string'), blank, longer(200)), odd: unknownId },
  api_key: { bad: fc.oneof(not('string'), blank, longer(200)), odd: nastyString },
  user_id: { bad: fc.oneof(not('string'), blank, longer(200)), odd: unknownId },
  quote_id: { bad: fc.oneof(not('string'), fc.constantFrom('q_1', 'anything')) },
  lang,
};

const paymentFields: Record<string, FieldSpec> = {
  type: { required: true, bad: fc.oneof(not('string'), fc.constantFrom('', 'payment', 'CHECKOUT')) },
  amount: {
    required: true,
    bad: fc.oneof(badAmount, fc.double({ min: 0.001, max: 1e6, noNaN: true }).filter((n) => !Number.isInteger(n)), fc.integer({ min: 1_000_000_001 }), fc.constantFrom(1e21, 2 ** 53 + 2)),
  },
  currency: { required: true, bad: fc.oneof(not('string'), fc.constantFrom('', 'ghs', 'GH', 'GHSS', 'G1S')) },
  recipient: { required: true, bad: not('object') },
  'recipient.name': { required: true, bad: fc.oneof(not('string'), blank), odd: nastyString },
  'recipient.email': { required: true, bad: fc.oneof(not('string'), fc.constantFrom('', 'x', 'a@')), odd: nastyString },
  redirect_url: httpUrl(),
  meta: {
    // Deeper than MAX_META_DEPTH, and deep enough to overflow any recursion over it.
    bad: fc.oneof(not('object'), fc.constantFrom({ order_id: 'A-1', nested: deep(17) }, { order_id: 'A-1', nested: deep(5_000) })),
    odd: fc.oneof(
      fc.dictionary(nastyString, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 5 }),
      fc.constantFrom(
        { organizationId: 'org_forged', user_id: 'usr_forged' },
        JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, unknown>,
        { constructor: { prototype: 1 } },
      ),
    ),
  },
};
const validPayment = fc.record({
  type: fc.constant('checkout'),
  amount: fc.integer({ min: 1, max: 1_000_000_000 }),
  currency: fc.constantFrom('GHS', 'USD'),
  recipient: fc.constant({ name: 'Ama Mensah', email: 'ama@example.com' }),
  redirect_url: fc.constant('https://shop.example/return'),
  meta: fc.constant({ order_id: 'A-1' }),
});

/** Checkout payments whose `meta` nests deeper than recursion can follow: parsed fine, a problem for whatever recurses. */
export const deepMeta = (depth: number) => ({ order_id: 'A-1', nested: deep(depth) });

export const ENDPOINTS: Endpoint[] = [
  // The merchant dashboard (000 section 4).
  {
    name: 'POST /api/v1/merchant/register',
    style: 'envelope',
    method: 'POST',
    path: () => '/api/v1/merchant/register',
    body: {
      valid: () =>
        fc.record({
          name: fc.constant('Kofi Shop'),
          legal_name: fc.constant('Kofi Shop Ltd'),
          email: fc.uuid().map((u) => `m-${u}@shop.example`),
          password: fc.constant('correct horse battery'),
        }),
      fields: {
        name: text(),
        legal_name: text(),
        email: { ...email, bad: fc.oneof(email.bad!, fc.constant(`${'x'.repeat(250)}@shop.example`)) },
        password: { required: true, bad: fc.oneof(not('string'), fc.string({ maxLength: 7 }), longer(128)), odd: nastyString },
      },
    },
    ok: [201],
  },
  {
    name: 'POST /api/v1/merchant/login',
    style: 'envelope',
    method: 'POST',
    path: () => '/api/v1/merchant/login',
    body: {
      valid: (w) => fc.constant({ ...w.credentials }),
      fields: {
        email: { required: true, bad: fc.oneof(not('string'), fc.constant(''), longer(254)), odd: nastyString },
        password: { required: true, bad: fc.oneof(not('string'), fc.constant(''), longer(128)), odd: nastyString },
      },
    },
    ok: [200],
    refusals: [401],
  },
  {
    name: 'POST /api/v1/merchant/apikeys',
    style: 'envelope',
    method: 'POST',
    path: () => '/api/v1/merchant/apikeys',
    auth: dashboard,
    body: {
      valid: () =>
        fc.record(
          {
            key_type: fc.constantFrom('public', 'secret'),
            domains: fc.constant(['https://shop.example']),
            allowed_ips: fc.constant(['203.0.113.7', '::1']),
            permissions: fc.constant(['onramp']),
            rate_limit_rpm: fc.integer({ min: 1, max: 600 }),
          },
          { requiredKeys: ['key_type'] },
        ),
      fields: {
        key_type: { required: true, bad: fc.oneof(not('string'), fc.constantFrom('', 'private', 'PUBLIC')) },
        domains: {
          bad: fc.oneof(
            not('array'),
            fc.array(fc.constantFrom('shop.example', 'https://shop.example/path', 'ftp://shop.example', 'javascript:alert(1)', ''), { minLength: 1, maxLength: 3 }),
            fc.constant(Array.from({ length: 51 }, (_, i) => `https://s${i}.example`)),
          ),
          odd: fc.array(nastyString, { maxLength: 3 }),
        },
        allowed_ips: { bad: fc.oneof(not('array'), fc.constant(['999.1.1.1']), fc.constant(['localhost']), fc.constant([7])) },
        permissions: { bad: fc.oneof(not('array'), fc.constant([]), fc.constant(['admin'])) },
        rate_limit_rpm: { bad: fc.oneof(not('number'), fc.constantFrom(0, -1, 601, 1.5, 1e308, raw('1e400'))) },
      },
    },
    ok: [201],
  },
  {
    name: 'DELETE /api/v1/merchant/apikeys/:id',
    style: 'envelope',
    method: 'DELETE',
    path: (w, id = w.spareKeyId) => `/api/v1/merchant/apikeys/${encodeURIComponent(id)}`,
    param: [404],
    auth: dashboard,
    ok: [200],
  },
  { name: 'GET /api/v1/merchant/profile', style: 'envelope', method: 'GET', path: () => '/api/v1/merchant/profile', auth: dashboard, ok: [200] },
  {
    name: 'POST /api/v1/merchant/kyb/submit',
    style: 'envelope',
    method: 'POST',
    path: () => '/api/v1/merchant/kyb/submit',
    auth: dashboard,
    body: {
      valid: () => fc.constant({ registration_number: 'CS-123', country: 'GHA', documents: [{ type: 'certificate', url: 'https://docs.example/c.pdf' }] }),
      fields: {
        registration_number: text(100),
        country: { required: true, bad: fc.oneof(not('string'), fc.constantFrom('', 'gha', 'GH', 'GHAN')) },
        documents: { required: true, bad: fc.oneof(not('array'), fc.constant([]), fc.constant(Array.from({ length: 21 }, () => ({ type: 't', url: 'https://d.example' })))) },
        'documents.0.type': text(64),
        'documents.0.url': httpUrl(),
      },
    },
    ok: [200],
    refusals: [409],
  },
  { name: 'GET /api/v1/merchant/kyb/status', style: 'envelope', method: 'GET', path: () => '/api/v1/merchant/kyb/status', auth: dashboard, ok: [200] },
  {
    name: 'PUT /api/v1/merchant/widget-config',
    style: 'envelope',
    method: 'PUT',
    path: () => '/api/v1/merchant/widget-config',
    auth: dashboard,
    body: {
      valid: () =>
        fc.record(
          {
            theme: fc.record({ primary_color: fc.constantFrom('#123', '#0f766e'), border_radius: fc.constantFrom('0', '12px', '0.5rem', '50%') }, { requiredKeys: [] }),
            allowed_coins: fc.constant(['USDC']),
            redirect_url: fc.constantFrom(null, 'https://shop.example/back'),
          },
          { requiredKeys: ['allowed_coins'] },
        ),
      emptyRefused: true,
      fields: {
        theme: { bad: not('object') },
        'theme.primary_color': { bad: fc.oneof(not('string'), fc.constantFrom('red', '#12345', '#gggggg', '0f766e', '')) },
        'theme.border_radius': { bad: fc.oneof(not('string'), fc.constantFrom('12', '-1px', 'calc(1px)', '12 px', '')) },
        allowed_coins: { bad: fc.oneof(not('array'), fc.constant([]), fc.constant(['BTC'])) },
        redirect_url: { bad: fc.oneof(not('string', 'null'), fc.constantFrom('not a url', 'ftp://x.example')) },
      },
    },
    ok: [200],
  },
  {
    name: 'PUT /api/v1/merchant/webhook',
    style: 'envelope',
    method: 'PUT',
    path: () => '/api/v1/merchant/webhook',
    auth: dashboard,
    body: { valid: () => fc.constant({ url: 'http://127.0.0.1:9/other' }), fields: { url: httpUrl() } },
    ok: [200],
  },
  { name: 'GET /api/v1/merchant/webhook', style: 'envelope', method: 'GET', path: () => '/api/v1/merchant/webhook', auth: dashboard, ok: [200] },
  { name: 'POST /api/v1/merchant/webhook/rotate', style: 'envelope', method: 'POST', path: () => '/api/v1/merchant/webhook/rotate', auth: dashboard, ok: [200] },
  {
    name: 'GET /api/v1/merchant/orders',
    style: 'envelope',
    method: 'GET',
    path: () => '/api/v1/merchant/orders?limit=10',
    auth: dashboard,
    query: {
      limit: { bad: fc.oneof(limitText, fc.constantFrom('101', '1e2', ' 5')), odd: nastyString },
      cursor: { bad: fc.oneof(unknownId, longer(200)), odd: nastyString },
    },
    ok: [200],
  },

  // The widget backend (000 section 4).
  {
    name: 'GET /api/v1/widget/config',
    style: 'envelope',
    method: 'GET',
    path: () => '/api/v1/widget/config',
    auth: { ...secretKey('x-api-key'), others: (w) => [[w.publicKey, 403], [`Bearer ${w.secretKey}`, 401]] },
    ok: [200],
  },
  {
    name: 'POST /api/v1/widget/session',
    style: 'envelope',
    method: 'POST',
    path: () => '/api/v1/widget/session',
    auth: secretKey('x-api-key'),
    body: { valid: (w) => fc.constant({ user_id: w.customerId }), fields: { user_id: { required: true, bad: fc.oneof(not('string'), blank, longer(100)), odd: fc.oneof(nastyString, unknownId) } } },
    ok: [201],
    refusals: [403, 404],
  },
  {
    name: 'POST /api/v1/widget/customer',
    style: 'envelope',
    method: 'POST',
    path: () => '/api/v1/widget/customer',
    auth: secretKey('x-api-key'),
    body: { valid: () => validCustomer, fields: customerFields },
    ok: [200, 201],
  },
  {
    name: 'GET /api/v1/widget/customer/:id',
    style: 'envelope',
    method: 'GET',
    path: (w, id = w.customerId) => `/api/v1/widget/customer/${encodeURIComponent(id)}`,
    param: [404],
    auth: secretKey('x-api-key'),
    ok: [200],
  },
  {
    name: 'DELETE /api/v1/widget/customer/:id',
    style: 'envelope',
    method: 'DELETE',
    path: (w, id = w.customerId) => `/api/v1/widget/customer/${encodeURIComponent(id)}`,
    param: [404],
    auth: secretKey('x-api-key'),
    ok: [200],
  },
  ...(['deposit', 'withdraw'] as const).map(
    (kind): Endpoint => ({
      name: `POST /api/v1/widget/${kind}/interactive`,
      style: 'envelope',
      method: 'POST',
      path: () => `/api/v1/widget/${kind}/interactive`,
      auth: secretKey('x-api-key'),
      body: {
        valid: (w) =>
          fc.record(
            {
              asset_code: fc.constant('USDC'),
              user_id: fc.constant(w.customerId),
              api_key: fc.constant(w.publicKey),
              lang: fc.constantFrom('en', 'fr', 'en-GB'),
              [kind === 'deposit' ? 'fiat_amount' : 'onchain_amount']: kind === 'deposit' ? fc.integer({ min: 20, max: 4_000 }) : fc.integer({ min: 2, max: 200 }),
              ...(kind === 'deposit' ? { destination_address: fc.constant(WALLET.publicKey()) } : {}),
            },
            { requiredKeys: ['asset_code', 'user_id', 'api_key'] },
          ),
        fields: interactiveFields(kind === 'deposit' ? 'fiat_amount' : 'onchain_amount'),
      },
      ok: [200],
      refusals: [403, 404, 422],
    }),
  ),

  {
    name: 'POST /api/v1/widget/orders',
    style: 'envelope',
    method: 'POST',
    path: () => '/api/v1/widget/orders',
    auth: { ...secretKey('x-api-key'), others: (w) => [[`Bearer ${w.secretKey}`, 401]] },
    headers: (w) => ({ 'x-session-id': w.session.id, 'x-session-token': w.session.token }),
    freshHeader: 'x-idempotency-key',
    badHeaders: {
      'x-idempotency-key': fc.oneof(fc.constantFrom('', '   ', 'order-42', '7d3c1a52-0a51-4c36-9a0e-0b1d6f6b7a1'), longer(255)),
      'x-session-id': fc.constantFrom('', '   '),
      'x-session-token': fc.constantFrom('', '   '),
    },
    body: {
      // The world's deposit, whose phone was never verified: the valid request meets 422 PHONE_NOT_VERIFIED.
      valid: (w) =>
        fc.record(
          { transaction_id: fc.constant(w.deposit.id), provider: fc.constantFrom('mtn', 'telecel'), phone: fc.constant('+233201234567'), amount: fc.integer({ min: 20, max: 1_000 }) },
          { requiredKeys: ['transaction_id', 'provider', 'phone'] },
        ),
      fields: {
        transaction_id: { required: true, bad: fc.oneof(not('string'), blank, longer(100)), odd: fc.oneof(nastyString, unknownId) },
        provider: { required: true, bad: fc.oneof(not('string'), blank, longer(40)), odd: nastyString },
        phone: { ...intlPhone, bad: fc.oneof(not('string'), blank, longer(40)) },
        amount: amount(),
        destination_address: { bad: fc.oneof(not('string'), longer(69)), odd: nastyString },
        quote_id: { bad: fc.oneof(not('string'), blank, longer(100)), odd: fc.oneof(nastyString, unknownId) },
      },
    },
    ok: [201],
    refusals: [401, 403, 404, 409, 422],
    baseline: 422,
  },

  // The anchor: SEP-1, SEP-10, SEP-12, SEP-24, SEP-38.
  { name: 'GET /.well-known/stellar.toml', style: 'sep', method: 'GET', path: () => '/.well-known/stellar.toml', query: { x: { odd: nastyString } }, ok: [200] },
  {
    name: 'GET /anchor/auth',
    style: 'sep',
    method: 'GET',
    path: () => `/anchor/auth?account=${WALLET.publicKey()}`,
    query: {
      account: { required: true, bad: fc.oneof(fc.constantFrom('', 'GABC', WALLET.secret(), WALLET.publicKey().toLowerCase()), nastyString) },
      memo: { bad: fc.constantFrom('-1', 'abc', '1.5', '18446744073709551616', '0x10', '1'.repeat(21)) },
      home_domain: { bad: fc.constantFrom('evil.example', 'localhost:1') },
      client_domain: { bad: fc.constantFrom('wallet.example', 'x') },
    },
    ok: [200],
  },
  {
    name: 'POST /anchor/auth',
    style: 'sep',
    method: 'POST',
    path: () => '/anchor/auth',
    body: {
      valid: (w) => fc.constant({ transaction: w.signedChallenge }),
      forms: true,
      fields: {
        transaction: {
          required: true,
          bad: fc.oneof(not('string'), fc.constant(''), fc.string({ minLength: 1, maxLength: 60 }), fc.base64String({ minLength: 4, maxLength: 200 })),
        },
      },
    },
    ok: [200],
  },
  {
    name: 'PUT /anchor/customer',
    style: 'sep',
    method: 'PUT',
    path: () => '/anchor/customer',
    auth: sep10,
    body: { valid: () => validCustomer, forms: true, fields: { ...customerFields, id: { odd: fc.oneof(unknownId, not('string')) } } },
    ok: [202],
    refusals: [404],
  },
  {
    name: 'GET /anchor/customer',
    style: 'sep',
    method: 'GET',
    path: (w) => `/anchor/customer?id=${w.customerId}`,
    auth: { ...sep10, others: (w) => [[w.dashboard.authorization!, 403], [`Bearer ${w.strangerSep10}`, 404]] },
    query: { id: { odd: fc.oneof(unknownId, nastyString) } },
    ok: [200],
    refusals: [404],
  },
  {
    name: 'DELETE /anchor/customer/:id',
    style: 'sep',
    method: 'DELETE',
    path: (w, id = w.customerId) => `/anchor/customer/${encodeURIComponent(id)}`,
    param: [404],
    // SEP-12 lists 401 for this one; the other anchor endpoints keep SEP-24's 403.
    auth: { ...sep10, refused: 401, others: (w) => [[`Bearer ${w.strangerSep10}`, 404]] },
    ok: [200],
  },
  { name: 'GET /anchor/info', style: 'sep', method: 'GET', path: () => '/anchor/info', query: { asset_code: { odd: nastyString } }, ok: [200] },
  ...(['deposit', 'withdraw'] as const).map(
    (kind): Endpoint => ({
      name: `POST /anchor/transactions/${kind}/interactive`,
      style: 'sep',
      method: 'POST',
      path: () => `/anchor/transactions/${kind}/interactive`,
      auth: sep10,
      body: {
        valid: (w) =>
          fc.record(
            // Without merchant fields: a customer the signed-in account (the merchant's backend) created at the anchor.
            { asset_code: fc.constant('USDC'), amount: kind === 'deposit' ? fc.integer({ min: 20, max: 4_000 }) : fc.integer({ min: 2, max: 200 }), user_id: fc.constant(w.customerId) },
            { requiredKeys: ['asset_code'] },
          ),
        forms: true,
        fields: sepInteractiveFields,
      },
      ok: [200],
      refusals: [401, 403, 404, 422],
    }),
  ),
  { name: 'GET /anchor/sep38/info', style: 'sep', method: 'GET', path: () => '/anchor/sep38/info', query: { x: { odd: nastyString } }, ok: [200] },
  {
    name: 'GET /anchor/sep38/prices',
    style: 'sep',
    method: 'GET',
    path: () => '/anchor/sep38/prices?sell_asset=iso4217:GHS&sell_amount=100',
    query: {
      sell_asset: { required: true, bad: fc.oneof(fc.constantFrom('', 'GHS', 'iso4217:USD', 'stellar:USDC'), nastyString) },
      sell_amount: { bad: fc.constantFrom('', '-1', '0', 'abc', '1e3', '1.12345678', '5') },
      sell_delivery_method: { bad: fc.constantFrom('', 'cash', 'MOBILE_MONEY') },
      country_code: { bad: fc.constantFrom('', 'NG', 'USA') },
    },
    ok: [200],
  },
  {
    name: 'GET /anchor/sep38/price',
    style: 'sep',
    method: 'GET',
    path: (w) => `/anchor/sep38/price?sell_asset=iso4217:GHS&buy_asset=${encodeURIComponent(usdcAsset(w.env.backend.context))}&sell_amount=100&context=sep24`,
    query: {
      sell_asset: { required: true, bad: fc.oneof(fc.constantFrom('', 'GHS', 'iso4217:USD'), nastyString) },
      buy_asset: { required: true, bad: fc.oneof(fc.constantFrom('', 'USDC', 'iso4217:GHS'), nastyString) },
      sell_amount: { bad: fc.constantFrom('', '-1', '0', 'abc', '1e3', '5', '99999999') },
      buy_amount: { bad: fc.constantFrom('1', '-1', 'abc') },
      context: { required: true, bad: fc.constantFrom('', 'sep6', 'sep31', 'SEP24') },
      buy_delivery_method: { bad: fc.constantFrom('', 'cash') },
      api_key: { bad: fc.oneof(unknownId, longer(200)) },
    },
    ok: [200],
  },
  {
    name: 'POST /anchor/sep38/quote',
    style: 'sep',
    method: 'POST',
    path: () => '/anchor/sep38/quote',
    auth: sep10,
    body: {
      valid: (w) =>
        fc.record(
          {
            sell_asset: fc.constant('iso4217:GHS'),
            buy_asset: fc.constant(usdcAsset(w.env.backend.context)),
            sell_amount: fc.integer({ min: 20, max: 4_000 }).map(String),
            context: fc.constant('sep24'),
            sell_delivery_method: fc.constant('mobile_money'),
            country_code: fc.constantFrom('GH', 'GHA'),
          },
          { requiredKeys: ['sell_asset', 'buy_asset', 'sell_amount', 'context'] },
        ),
      forms: true,
      fields: {
        sell_asset: { required: true, bad: fc.oneof(not('string'), fc.constantFrom('', 'GHS', 'iso4217:USD')), odd: nastyString },
        buy_asset: { required: true, bad: fc.oneof(not('string'), fc.constantFrom('', 'USDC', 'iso4217:GHS')), odd: nastyString },
        sell_amount: { required: true, bad: fc.oneof(badAmount, fc.constantFrom('abc', '1.12345678', '-5', '1e3', '', '5')), odd: oddAmount },
        buy_amount: { bad: fc.oneof(badAmount, fc.constantFrom('1', '10')) },
        context: { required: true, bad: fc.oneof(not('string'), fc.constantFrom('', 'sep6', 'sep31')) },
        expire_after: { bad: fc.oneof(not('string'), isoBad, fc.constant('2999-01-01T00:00:00Z')) },
        sell_delivery_method: { bad: fc.oneof(not('string'), fc.constantFrom('', 'cash')) },
        country_code: { bad: fc.oneof(not('string'), fc.constantFrom('', 'NG')) },
        api_key: { bad: fc.oneof(not('string'), blank, longer(200)), odd: fc.oneof(nastyString, unknownId) },
      },
    },
    ok: [201],
  },
  {
    name: 'GET /anchor/sep38/quote/:id',
    style: 'sep',
    method: 'GET',
    // The world holds no quote: an unknown id is 404 (a quote of its own is in anchor-sep38.test.ts).
    path: (_w, id = 'no-such-quote') => `/anchor/sep38/quote/${encodeURIComponent(id)}`,
    param: [404],
    auth: sep10,
    ok: [200],
    baseline: 404,
  },
  {
    name: 'GET /anchor/transaction',
    style: 'sep',
    method: 'GET',
    path: (w) => `/anchor/transaction?id=${w.anchorDepositId}`,
    auth: { ...sep10, others: (w) => [[`Bearer ${w.strangerSep10}`, 404]] },
    query: { id: { odd: fc.oneof(unknownId, nastyString) }, stellar_transaction_id: { odd: unknownId }, external_transaction_id: { odd: unknownId } },
    ok: [200],
    refusals: [404],
  },
  {
    name: 'GET /anchor/transactions',
    style: 'sep',
    method: 'GET',
    path: () => '/anchor/transactions?asset_code=USDC',
    auth: sep10,
    query: {
      asset_code: { required: true, bad: fc.constantFrom('', 'BTC', 'usdc') },
      kind: { bad: fc.constantFrom('', 'buy', 'DEPOSIT', 'withdraw') },
      limit: { bad: fc.oneof(limitText, fc.constant('201')) },
      no_older_than: { bad: fc.oneof(isoBad, fc.constant('2026-01-01')) },
      paging_id: { bad: unknownId },
    },
    ok: [200],
  },

  // The interactive page and its JSON steps.
  {
    name: 'GET /interactive',
    style: 'html',
    method: 'GET',
    path: (w) => `/interactive?token=${w.deposit.linkToken}`,
    query: { token: { bad: fc.oneof(unknownId, nastyString, fc.constant('')) }, lang: { odd: nastyString }, origin: { odd: nastyString } },
    queryRefused: 404,
    ok: [200],
  },
  {
    name: 'GET /interactive/transaction',
    style: 'html',
    method: 'GET',
    path: (w) => `/interactive/transaction?id=${w.withdrawal.id}`,
    query: { id: { bad: fc.oneof(unknownId, nastyString) }, lang: { odd: nastyString } },
    queryRefused: 404,
    ok: [200],
  },
  {
    name: 'POST /interactive/api/otp',
    style: 'page',
    method: 'POST',
    path: () => '/interactive/api/otp',
    auth: pageToken('deposit'),
    body: { valid: () => fc.constant({ phone: '+233201234567' }), fields: { phone: intlPhone } },
    ok: [200],
    refusals: [429],
  },
  {
    name: 'POST /interactive/api/verify',
    style: 'page',
    method: 'POST',
    path: () => '/interactive/api/verify',
    auth: pageToken('deposit'),
    body: { valid: () => fc.constant({ phone: '+233201234567', code: '123456' }), fields: { phone: intlPhone, code: otpCode } },
    ok: [200],
    refusals: [422, 429],
    baseline: 422,
    countsTries: true,
  },
  {
    name: 'POST /interactive/api/quote',
    style: 'page',
    method: 'POST',
    path: () => '/interactive/api/quote',
    auth: pageToken('withdrawal'),
    body: { valid: () => fc.record({ amount: fc.integer({ min: 2, max: 200 }) }), fields: { amount: amount(true) } },
    ok: [200],
    refusals: [422],
  },
  {
    name: 'POST /interactive/api/complete',
    style: 'page',
    method: 'POST',
    path: () => '/interactive/api/complete',
    auth: pageToken('deposit'),
    body: {
      valid: () => fc.constant({ provider: 'mtn', phone: '+233201234567', amount: 100, otp_code: '123456' }),
      fields: {
        provider: { required: true, bad: fc.oneof(not('string'), longer(40)), odd: nastyString },
        phone: intlPhone,
        otp_code: { bad: fc.oneof(not('string'), longer(12)), odd: sixDigits },
        amount: amount(),
        destination_address: { bad: fc.oneof(not('string'), longer(69)), odd: nastyString },
      },
    },
    ok: [200],
    refusals: [403, 409, 422, 429],
    baseline: 422,
    countsTries: true,
  },
  {
    name: 'GET /interactive/api/transaction',
    style: 'page',
    method: 'GET',
    path: () => '/interactive/api/transaction?since=incomplete',
    auth: pageToken('deposit'),
    query: { since: { odd: nastyString } },
    ok: [200],
  },

  // The ramp order API (001).
  {
    name: 'POST /api/v1/ramp/kyc/initiate',
    style: 'envelope',
    method: 'POST',
    path: () => '/api/v1/ramp/kyc/initiate',
    auth: secretKey('authorization'),
    body: {
      valid: () => fc.record({ first_name: fc.constant('Kwame'), last_name: fc.constant('Mensah'), phone: fc.constantFrom('0241234567', '0501234567'), provider_name: fc.constantFrom('mtn', 'MTN MoMo', 'Telecel Cash', 'airteltigo') }),
      fields: { first_name: text(100), last_name: text(100), phone: localPhone, provider_name: provider },
      jsonOnly: true,
    },
    ok: [201],
  },
  {
    name: 'POST /api/v1/ramp/kyc/verify',
    style: 'envelope',
    method: 'POST',
    path: () => '/api/v1/ramp/kyc/verify',
    auth: secretKey('authorization'),
    body: {
      valid: (w) => fc.record({ kyc_id: fc.constant(w.ramp.pendingKycId), otp_code: sixDigits }),
      fields: { kyc_id: { required: true, bad: fc.oneof(not('string'), fc.constant(''), longer(100)), odd: unknownId }, otp_code: otpCode },
      jsonOnly: true,
    },
    ok: [200],
    refusals: [404, 422, 429],
    baseline: 422,
    countsTries: true,
  },
  {
    name: 'POST /api/v1/ramp/orders',
    style: 'envelope',
    method: 'POST',
    path: () => '/api/v1/ramp/orders',
    auth: secretKey('authorization'),
    freshHeader: 'x-idempotency-key',
    badHeaders: { 'x-idempotency-key': fc.oneof(fc.constantFrom('', '   '), longer(255)) },
    body: {
      valid: (w) =>
        fc.record({
          type: fc.constant('onramp'),
          fiat_amount: fc.integer({ min: 20, max: 1_000 }),
          destination_wallet: fc.constant(WALLET.publicKey()),
          payment_method: fc.constant('mobile_money'),
          user: fc.constant({ first_name: 'Kwame', last_name: 'Mensah', phone: w.ramp.phone, network: 'MTN' }),
        }),
      fields: {
        type: { required: true, bad: fc.oneof(not('string'), fc.constantFrom('', 'buy', 'ONRAMP')) },
        fiat_amount: { required: true, bad: fc.oneof(badAmount, fc.constantFrom(10.001, 100.555, 0.001)), odd: oddAmount },
        destination_wallet: stellarAccount(true),
        payment_method: { required: true, bad: fc.oneof(not('string'), fc.constantFrom('', 'card', 'MOBILE_MONEY')) },
        user: { required: true, bad: not('object') },
        'user.first_name': text(100),
        'user.last_name': text(100),
        'user.phone': localPhone,
        'user.network': provider,
      },
      jsonOnly: true,
    },
    ok: [201],
    refusals: [409, 422],
  },
  {
    name: 'GET /api/v1/ramp/orders/:reference',
    style: 'envelope',
    method: 'GET',
    path: (w, id = w.ramp.onramp) => `/api/v1/ramp/orders/${encodeURIComponent(id)}`,
    param: [404],
    auth: secretKey('authorization'),
    ok: [200],
  },
  {
    name: 'POST /api/v1/ramp/orders/:reference/confirm',
    style: 'envelope',
    method: 'POST',
    path: (w, id = w.ramp.offramp) => `/api/v1/ramp/orders/${encodeURIComponent(id)}/confirm`,
    param: [404],
    auth: secretKey('authorization'),
    body: { valid: () => fc.constant({ source_wallet: WALLET.publicKey() }), fields: { source_wallet: stellarAccount(true) }, jsonOnly: true },
    ok: [200],
    refusals: [409, 422],
  },
  {
    name: 'POST /api/v1/ramp/orders/:reference/cancel',
    style: 'envelope',
    method: 'POST',
    path: (w, id = w.ramp.onramp) => `/api/v1/ramp/orders/${encodeURIComponent(id)}/cancel`,
    param: [404],
    auth: secretKey('authorization'),
    ok: [200],
    refusals: [409],
  },

  // Checkout (002), its hosted page, and the earlier gateway routes.
  ...(['/api/v1/developer/payments', '/gateway/api/v1/payments/initiate'] as const).map(
    (path): Endpoint => ({
      name: `POST ${path}`,
      style: 'checkout',
      method: 'POST',
      path: () => path,
      auth: checkoutKey,
      badHeaders: { 'idempotency-key': fc.oneof(fc.constantFrom('', '  '), longer(128)) },
      body: { valid: () => validPayment, fields: paymentFields },
      ok: [201],
      ...(path === '/api/v1/developer/payments' ? { fieldRefused: 502 } : {}),
    }),
  ),
  ...(['/api/v1/developer/payments', '/gateway/api/v1/widget/session'] as const).map(
    (path): Endpoint => ({
      name: `GET ${path}/:sessionRef`,
      style: 'checkout',
      method: 'GET',
      path: (w, id = w.checkout.sessionId) => `${path}/${encodeURIComponent(id)}`,
      param: [400, 404],
      // 002 section 5: verification takes no credential.
      ok: [200],
    }),
  ),
  {
    name: 'GET /api/v1/developer/transactions',
    style: 'checkout',
    method: 'GET',
    path: () => '/api/v1/developer/transactions?limit=5',
    auth: checkoutKey,
    query: {
      status: { bad: fc.constantFrom('', 'paid', 'COMPLETED') },
      from: { bad: isoBad, odd: nastyString },
      to: { bad: isoBad, odd: nastyString },
      // Read with Number(): `1e2` is 100 here, while the order list takes digits only.
      limit: { bad: fc.constantFrom('0', '-1', '1.5', 'abc', '', '101', '9999999999999999999999'), odd: fc.constantFrom('1e2', ' 5', '0x10') },
      cursor: { bad: fc.oneof(unknownId, fc.constantFrom('', btoa('seq:x'), btoa('seq:-1'))), odd: nastyString },
    },
    ok: [200],
  },
  {
    name: 'POST /api/v1/developer/webhooks',
    style: 'checkout',
    method: 'POST',
    path: () => '/api/v1/developer/webhooks',
    auth: checkoutKey,
    body: { valid: () => fc.constant({ url: 'http://127.0.0.1:9/more' }), fields: { url: httpUrl() } },
    ok: [201],
  },
  { name: 'GET /api/v1/developer/webhooks', style: 'checkout', method: 'GET', path: () => '/api/v1/developer/webhooks', auth: checkoutKey, ok: [200] },
  {
    name: 'DELETE /api/v1/developer/webhooks/:id',
    style: 'checkout',
    method: 'DELETE',
    path: (w, id = w.checkout.endpointId) => `/api/v1/developer/webhooks/${encodeURIComponent(id)}`,
    param: [404],
    auth: checkoutKey,
    ok: [200],
  },
  {
    name: 'POST /api/v1/developer/webhooks/events/:id/retry',
    style: 'checkout',
    method: 'POST',
    path: (w, id = w.checkout.eventId) => `/api/v1/developer/webhooks/events/${encodeURIComponent(id)}/retry`,
    param: [404],
    auth: checkoutKey,
    ok: [200],
  },
  {
    name: 'GET /gateway/checkout/:sessionId',
    style: 'html',
    method: 'GET',
    path: (w, id = w.checkout.pendingSessionId) => `/gateway/checkout/${encodeURIComponent(id)}`,
    param: [404],
    ok: [200],
  },
  {
    name: 'POST /gateway/checkout/:sessionId',
    style: 'html',
    method: 'POST',
    path: (w, id = w.checkout.pendingSessionId) => `/gateway/checkout/${encodeURIComponent(id)}`,
    param: [404],
    body: {
      valid: () => fc.record({ outcome: fc.constantFrom('succeed', 'fail', 'cancel') }),
      form: true,
      fields: { outcome: { required: true, bad: fc.oneof(fc.constantFrom('', 'pay', 'SUCCEED'), nastyString.filter((s) => !['succeed', 'fail', 'cancel'].includes(s))) } },
    },
    ok: [303],
    refusals: [409],
  },
];

/** The mock's own control API under `/_mock` (envelope errors), for what takes input. */
export const CONTROL_ENDPOINTS: Endpoint[] = [
  {
    name: 'PUT /_mock/customers/:id/status',
    style: 'envelope',
    method: 'PUT',
    path: (w, id = w.customerId) => `/_mock/customers/${encodeURIComponent(id)}/status`,
    param: [404],
    body: { valid: () => fc.record({ status: fc.constantFrom('ACCEPTED', 'PROCESSING', 'NEEDS_INFO', 'REJECTED') }), fields: { status: { required: true, bad: fc.oneof(not('string'), fc.constantFrom('', 'accepted', 'DONE')) } } },
    ok: [200],
  },
  ...(['kyb/approve', 'ramp/enable'] as const).map(
    (action): Endpoint => ({
      name: `POST /_mock/merchants/:id/${action}`,
      style: 'envelope',
      method: 'POST',
      path: (w, id = w.merchant.id) => `/_mock/merchants/${encodeURIComponent(id)}/${action}`,
      param: [404],
      ok: [200],
      refusals: [409],
    }),
  ),
  {
    name: 'POST /_mock/merchants/:id/kyb/reject',
    style: 'envelope',
    method: 'POST',
    path: (w, id = w.merchant.id) => `/_mock/merchants/${encodeURIComponent(id)}/kyb/reject`,
    param: [404],
    body: { valid: () => fc.constant({ reason: 'blurry' }), optional: true, fields: { reason: optionalText(500) } },
    ok: [200],
    refusals: [409],
    baseline: 409,
  },
  ...(['approve', 'decline'] as const).map(
    (action): Endpoint => ({
      name: `POST /_mock/mobile-money/:id/${action}`,
      style: 'envelope',
      method: 'POST',
      path: (w, id = w.ramp.onramp) => `/_mock/mobile-money/${encodeURIComponent(id)}/${action}`,
      param: [404],
      ok: [200],
      refusals: [409],
    }),
  ),
  {
    name: 'POST /_mock/payouts/:id/fail',
    style: 'envelope',
    method: 'POST',
    path: (_w, id = 'mmp_none') => `/_mock/payouts/${encodeURIComponent(id)}/fail`,
    param: [404],
    body: { valid: () => fc.constant({ reason: 'network down' }), optional: true, fields: { reason: { bad: fc.oneof(not('string'), longer(200)) } } },
    ok: [200],
    refusals: [409],
    baseline: 404,
  },
  {
    name: 'POST /_mock/stellar/payments',
    style: 'envelope',
    method: 'POST',
    path: () => '/_mock/stellar/payments',
    body: {
      valid: () =>
        fc.record({
          from: fc.constant(WALLET.publicKey()),
          to: fc.constant(WALLET.publicKey()),
          amount: fc.constantFrom(1, '2.5', '0.0000001'),
          asset_code: fc.constant('USDC'),
          memo: fc.constantFrom(null, 'RMP0000'),
        }),
      fields: {
        from: stellarAccount(true),
        to: stellarAccount(true),
        amount: { required: true, bad: fc.oneof(badAmount, fc.constantFrom('abc', '1.12345678', '-1', '')), odd: oddAmount },
        asset_code: { bad: fc.oneof(not('string'), fc.constant(''), longer(12)) },
        memo: { bad: fc.oneof(not('string', 'null'), longer(28)), odd: nastyString },
      },
    },
    ok: [201],
  },
  {
    name: 'GET /_mock/otp',
    style: 'envelope',
    method: 'GET',
    path: (w) => `/_mock/otp?phone=${w.ramp.phone}`,
    query: { phone: { required: true, bad: fc.constant(''), odd: fc.oneof(nastyString, unknownId) } },
    ok: [200],
    refusals: [404],
  },
  {
    name: 'POST /_mock/transactions/:id/complete-interactive',
    style: 'envelope',
    method: 'POST',
    path: (w, id = w.withdrawal.id) => `/_mock/transactions/${encodeURIComponent(id)}/complete-interactive`,
    param: [404],
    body: {
      valid: () => fc.record({ provider: fc.constantFrom('mtn', 'telecel'), phone: fc.constant('+233201234567'), amount: fc.integer({ min: 2, max: 200 }) }),
      fields: {
        // Unknown providers and amounts outside the limits are refused before any code is sent.
        provider: { required: true, bad: fc.oneof(not('string'), fc.constant(''), longer(40), fc.constantFrom('nope', 'vodafone')) },
        phone: { required: true, bad: fc.oneof(not('string'), fc.constant(''), longer(40)), odd: nastyString },
        amount: { bad: badAmount, odd: oddAmount },
        destination_address: { bad: fc.oneof(not('string'), fc.constant(''), longer(69)), odd: nastyString },
      },
    },
    ok: [200],
    refusals: [403, 409, 422],
  },
  { name: 'GET /_mock/transactions/:id', style: 'envelope', method: 'GET', path: (w, id = w.deposit.id) => `/_mock/transactions/${encodeURIComponent(id)}`, param: [404], ok: [200] },
  { name: 'GET /_mock/ramp/orders/:id', style: 'envelope', method: 'GET', path: (w, id = w.ramp.onramp) => `/_mock/ramp/orders/${encodeURIComponent(id)}`, param: [404], ok: [200] },
  ...(['send/fail', 'fail'] as const).map(
    (action): Endpoint => ({
      name: `POST /_mock/ramp/orders/:id/${action}`,
      style: 'envelope',
      method: 'POST',
      path: (w, id = w.ramp.onramp) => `/_mock/ramp/orders/${encodeURIComponent(id)}/${action}`,
      param: [404],
      body: { valid: () => fc.constant({ reason: 'chain congested' }), optional: true, fields: { reason: optionalText(200) } },
      ok: [200],
      refusals: [409],
      baseline: 409,
    }),
  ),
  {
    name: 'POST /_mock/checkout/keys',
    style: 'envelope',
    method: 'POST',
    path: () => '/_mock/checkout/keys',
    body: {
      valid: () => fc.record({ legacy: fc.boolean(), environment: fc.constantFrom('test', 'live'), allowed_ips: fc.constant(['203.0.113.7']) }, { requiredKeys: [] }),
      optional: true,
      fields: {
        legacy: { bad: not('boolean') },
        organization_id: { bad: not('string', 'null'), odd: unknownId },
        allowed_ips: { bad: fc.oneof(not('array'), fc.constant(['']), fc.constant([7])) },
        environment: { bad: fc.oneof(not('string'), fc.constantFrom('', 'prod', 'TEST')) },
      },
    },
    ok: [201],
    refusals: [404],
  },
  {
    name: 'POST /_mock/checkout/keys/rotate',
    style: 'envelope',
    method: 'POST',
    path: () => '/_mock/checkout/keys/rotate',
    body: { valid: (w) => fc.constant({ key: w.checkout.key }), fields: { key: { required: true, bad: fc.oneof(not('string'), fc.constant('')), odd: fc.oneof(nastyString, unknownId) } } },
    ok: [201],
    refusals: [404],
  },
  ...(['deactivate', 'activate', 'select'] as const).map(
    (action): Endpoint => ({
      name: `POST /_mock/checkout/organizations/:id/${action}`,
      style: 'envelope',
      method: 'POST',
      path: (w, id = [...w.env.backend.store.checkout.organizations.keys()][0]!) => `/_mock/checkout/organizations/${encodeURIComponent(id)}/${action}`,
      param: [404],
      ok: [200],
    }),
  ),
  {
    name: 'POST /_mock/checkout/:reference/complete',
    style: 'envelope',
    method: 'POST',
    path: (w, id = w.checkout.pendingSessionId) => `/_mock/checkout/${encodeURIComponent(id)}/complete`,
    param: [404],
    body: {
      valid: () => fc.record({ status: fc.constantFrom('completed', 'success', 'failed', 'cancelled'), final_amount: fc.integer({ min: 0, max: 5_000 }) }, { requiredKeys: ['status'] }),
      fields: {
        status: { required: true, bad: fc.oneof(not('string'), fc.constantFrom('', 'paid', 'pending')) },
        final_amount: { bad: fc.oneof(not('number'), fc.constantFrom(-1, 1.5, raw('1e400'))) },
      },
    },
    ok: [200],
    refusals: [409],
  },
  {
    name: 'POST /_mock/checkout/gateway/faults',
    style: 'envelope',
    method: 'POST',
    path: () => '/_mock/checkout/gateway/faults',
    body: {
      valid: () => fc.record({ status: fc.constantFrom(502, 429), count: fc.integer({ min: 0, max: 3 }) }),
      fields: {
        status: { required: true, bad: fc.oneof(not('number'), fc.constantFrom(500, 503, 200)) },
        count: { required: true, bad: fc.oneof(not('number'), fc.constantFrom(-1, 1.5, raw('1e400'))) },
      },
    },
    ok: [200],
  },
  ...(['POST /_mock/checkout/gateway/release', 'GET /_mock/checkout/gateway/held'] as const).map(
    (name): Endpoint => ({
      name,
      style: 'envelope',
      method: name.startsWith('GET') ? 'GET' : 'POST',
      path: () => name.split(' ')[1]!,
      ok: [200],
      refusals: [409],
      baseline: 409,
    }),
  ),
  ...(['/_mock/webhooks', '/_mock/mobile-money', '/_mock/transactions', '/_mock/clock'] as const).map(
    (path): Endpoint => ({
      name: `GET ${path}`,
      style: 'envelope',
      method: 'GET',
      path: () => path,
      query: { status: { odd: nastyString }, merchant_id: { odd: unknownId }, event: { odd: nastyString } },
      ok: [200],
    }),
  ),
];
