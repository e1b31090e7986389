/**
 * Property tests of the SDK's input checks, for every public method that takes input: any
 * bad input (a field missing, unknown or wrongly typed; malformed, over-long, unicode where
 * the format is ASCII; a negative, fractional, huge or NaN amount; no object at all) is a
 * ValidationError with its issues and nothing leaves the process, and any good input passes
 * and makes exactly one request, to its own route.
 */
import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/index.js';
import {
  anyId,
  cedis,
  countryCode,
  email,
  field,
  FOREIGN_DIGITS,
  gAddress,
  httpUrl,
  HUGE,
  huge,
  idLike,
  integer,
  intlPhone,
  list,
  localPhone,
  LONE_SURROGATES,
  nested,
  nonPositive,
  NOT_FINITE,
  NOT_POSITIVE,
  nullable,
  object,
  optional,
  pattern,
  stellarAddress,
  text,
  wrongType,
  type ObjectInput,
} from './arbitraries.js';
import { expectRefused, expectSent, offlineClients, outcomeOf, PUBLIC_KEY, type Clients } from './offline.js';

/** Runs per property: enough to meet every spoiler of every field, and the whole file stays under a few seconds. */
const RUNS = 60;

let clients: Clients;
beforeEach(() => {
  clients = offlineClients();
});

const constant = (value: string, bad: string[]) => field('string', fc.constant(value), bad);
const enumOf = (values: string[], bad: string[]) => field('string', fc.constantFrom(...values), bad);

/** Amounts: positive, finite, and not so large that the smallest unit is no longer exact. */
const positiveAmount = (valid: fc.Arbitrary<number>) => field('number', valid, [...NOT_POSITIVE, ...NOT_FINITE, ...HUGE], [nonPositive, huge]);

// The fields, once per kind.
const customer = {
  first_name: text(),
  last_name: text(),
  email_address: email(),
  birth_date: optional(
    pattern(
      fc.date({ min: new Date('1900-01-01'), max: new Date('2010-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
      ['1990-02-30', '1990-13-01', '90-01-01', '1990/01/01', '1990-1-1', '١٩٩٠-٠١-٠١', '1990-01-01T00:00:00Z'],
    ),
  ),
  address: optional(text()),
  city: optional(text()),
  state_or_province: optional(text()),
  postal_code: optional(text(20)),
  address_country_code: optional(countryCode),
  mobile_number: optional(intlPhone),
};
const rampUser = object({ first_name: text(100), last_name: text(100), phone: localPhone, network: text(100) });
const fiatAmount = field(
  'number',
  cedis(10),
  [9.99, 10.005, 100.001, ...NOT_POSITIVE, ...NOT_FINITE, ...HUGE],
  [cedis(0, 9.99), nonPositive, huge, fc.integer({ min: 10_000, max: 100_000_000 }).filter((n) => n % 10 !== 0).map((n) => n / 1000)],
);
const orderFields = { fiat_amount: fiatAmount, payment_method: optional(constant('mobile_money', ['card', 'MOBILE_MONEY', ''])), user: nested(rampUser) };
const onRamp = object({ type: constant('onramp', ['swap', 'ONRAMP', '']), destination_wallet: gAddress, ...orderFields });
const offRamp = object({ type: constant('offramp', ['swap', 'OFFRAMP', '']), ...orderFields });
const publicKey = pattern(fc.constantFrom(PUBLIC_KEY, 'pk_public_ABCdef012'), [
  'sika_secret_0123456789abcdef0123456789abcdef0123456789abcdef',
  'sika_public_',
  'public key',
  `sika_public_${'a'.repeat(300)}`,
]);
const anchorAmount = field(
  ['string', 'number'],
  fc.oneof(fc.integer({ min: 1, max: 10_000_000 }).map((n) => n / 10_000), fc.stringMatching(/^[1-9]\d{0,8}(?:\.\d{1,7})?$/)),
  [...NOT_POSITIVE, ...NOT_FINITE, ...HUGE, 1e-7, 0.1 + 0.2, '', '0', '0.0', '-1', '1e5', '1.12345678', ' 1', '1,5', '١٢', '9'.repeat(40)],
  [nonPositive, huge],
);
const lang = optional(pattern(fc.constantFrom('en', 'fr', 'en-GB', 'fr-GH', 'tw'), ['english', 'EN', 'en_GB', 'ẽn', 'fr-GHA']));
/** The anchor takes any RFC 4646 tag (SEP-24), falling back to en for a language it lacks. */
const anchorLang = optional(pattern(fc.constantFrom('en', 'fr', 'en-GB', 'fr-GH', 'tw', 'es-419', 'zh-Hant-TW'), ['en_GB', 'ẽn', 'en-', 'en GB', 'abcdefghi']));
const anchorInteractive = object({
  asset_code: optional(constant('USDC', ['XLM', 'usdc', ''])),
  account: optional(pattern(stellarAddress, ['GABC', 'SBK2VIYYSVG76E7VC3QHYARNFLY2EAQXDHRC7BMXBBGIFG74ARPRMNQM'])),
  amount: optional(anchorAmount),
  merchant_id: optional(text(100)),
  session_id: optional(text(100)),
  session_token: optional(text(100)),
  api_key: optional(publicKey),
  user_id: optional(text(100)),
  quote_id: optional(text(100)),
  lang: anchorLang,
});
/** Idempotency keys of at most `max` characters: what a header carries unchanged. */
const idempotencyKey = (max: number) =>
  pattern(fc.oneof(fc.uuid(), fc.stringMatching(new RegExp(`^[\\x21-\\x7e](?:[\\x20-\\x7e]{0,${max - 2}}[\\x21-\\x7e])?$`))), [
    'ключ-1',
    'clé',
    'order-🛒',
    'a\nb',
    'a\r\nX-Injected: 1',
    'a\u0000b',
    ' k',
    'k ',
    '\t',
    'k'.repeat(max + 1),
    ...LONE_SURROGATES,
  ]);
const isoTime = fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true });
/** A SEP-38 asset identifier. */
const sep38Asset = pattern(fc.constantFrom('iso4217:GHS', 'stellar:USDC:GA5ZSEJYB37JRC5AVCIA5MOP4RHTM335X2KGX3IHOJAPP5RE34K4KZVN'), [
  'GHS',
  'iso4217:ghs',
  'iso4217:GHS ',
  'stellar:USDC',
  'stellar:USDC:GABC',
  'ＧＨＳ',
]);
const sep38Price = {
  sell_asset: sep38Asset,
  buy_asset: sep38Asset,
  sell_amount: anchorAmount,
  context: optional(enumOf(['sep6', 'sep24', 'sep31'], ['SEP24', 'sep-24', 'sep12', ''])),
  sell_delivery_method: optional(text(40)),
  country_code: optional(text(6)),
  api_key: optional(text(200)),
};
/** A session id or token: sent in a header, so printable ASCII. */
const sessionValue = pattern(fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/), ['a\nb', ' s', 's ', 'ключ', 'x'.repeat(201)]);

interface ObjectCase {
  /** `client.resource.method`. */
  name: string;
  input: Pick<ObjectInput, 'cases' | 'invalid'> & { valid: fc.Arbitrary<unknown> };
  call(c: Clients, input: unknown): unknown;
  route: [method: string, path: string];
}

const OBJECT_CASES: ObjectCase[] = [
  {
    name: 'merchant.auth.register',
    input: object({
      name: text(),
      legal_name: text(),
      email: email(),
      password: field(
        'string',
        fc.string({ minLength: 8, maxLength: 40, unit: 'grapheme' }).filter((s) => s.length >= 8 && s.length <= 128),
        ['', 'short', '1234567', 'p'.repeat(129)],
        [fc.string({ maxLength: 7 }).filter((s) => s.length < 8), fc.string({ minLength: 129, maxLength: 140 })],
      ),
    }),
    call: (c, input) => c.merchant.auth.register(input as never),
    route: ['POST', '/api/v1/merchant/register'],
  },
  {
    name: 'merchant.auth.login',
    input: object({
      email: field('string', fc.string({ minLength: 1, maxLength: 60 }), ['', 'e'.repeat(255)]),
      password: field('string', fc.string({ minLength: 1, maxLength: 60 }), ['', 'p'.repeat(129)]),
    }),
    call: (c, input) => c.merchant.auth.login(input as never),
    route: ['POST', '/api/v1/merchant/login'],
  },
  {
    name: 'merchant.apiKeys.create',
    input: object({
      key_type: enumOf(['public', 'secret'], ['admin', 'PUBLIC', '']),
      domains: optional(
        list(
          pattern(fc.tuple(fc.constantFrom('https', 'http'), fc.domain()).map(([scheme, host]) => `${scheme}://${host}`), [
            'https://shop.example/checkout',
            'https://shop.example/',
            'ftp://shop.example',
            'shop.example',
            'https://SHOP.example',
            `https://${'a'.repeat(3000)}.example`,
          ]),
          0,
          50,
        ),
      ),
      allowed_ips: optional(list(pattern(fc.oneof(fc.ipV4(), fc.constantFrom('::1', '2001:db8::7')), ['256.1.1.1', '1.2.3', 'localhost', '::g']), 0, 50)),
      permissions: optional(list(enumOf(['onramp', 'offramp'], ['admin', 'ONRAMP']), 1)),
      rate_limit_rpm: optional(integer(1, 600)),
    }),
    call: (c, input) => c.merchant.apiKeys.create(input as never),
    route: ['POST', '/api/v1/merchant/apikeys'],
  },
  {
    name: 'merchant.kyb.submit',
    input: object({
      registration_number: text(100),
      country: countryCode,
      documents: list(nested(object({ type: text(64), url: httpUrl })), 1, 20),
    }),
    call: (c, input) => c.merchant.kyb.submit(input as never),
    route: ['POST', '/api/v1/merchant/kyb/submit'],
  },
  {
    name: 'merchant.widgetConfig.update',
    input: (() => {
      const config = object(
        {
          theme: optional(
            nested(
              object({
                primary_color: optional(pattern(fc.stringMatching(/^#(?:[0-9a-f]{3}|[0-9A-F]{6})$/), ['teal', '#12', '#1234567', '0f766e', '#ggg', '#０f7'])),
                border_radius: optional(pattern(fc.constantFrom('0', '12px', '0.5rem', '50%', '1.25em'), ['12', 'px', '-1px', '12 px', 'calc(1px)', '１２px'])),
              }),
            ),
          ),
          allowed_coins: optional(list(constant('USDC', ['XLM', 'usdc']), 1)),
          redirect_url: optional(nullable(httpUrl)),
        },
        { refine: (v) => v.theme !== undefined || v.allowed_coins !== undefined || v.redirect_url !== undefined },
      );
      return { valid: config.valid, cases: [...config.cases, { label: 'no field', value: {} }], invalid: fc.oneof(config.invalid, fc.constant({})) };
    })(),
    call: (c, input) => c.merchant.widgetConfig.update(input as never),
    route: ['PUT', '/api/v1/merchant/widget-config'],
  },
  {
    name: 'merchant.webhook.set',
    input: object({ url: httpUrl }),
    call: (c, input) => c.merchant.webhook.set(input as never),
    route: ['PUT', '/api/v1/merchant/webhook'],
  },
  {
    name: 'merchant.orders.list',
    input: object({ limit: optional(integer(1, 100)), cursor: optional(field('string', fc.string({ maxLength: 40 }), ['c'.repeat(201)])) }),
    call: (c, input) => c.merchant.orders.list(input as never),
    route: ['GET', '/api/v1/merchant/orders'],
  },
  {
    name: 'widget.customers.create',
    input: object(customer),
    call: (c, input) => c.widget.customers.create(input as never),
    route: ['POST', '/api/v1/widget/customer'],
  },
  {
    name: 'widget.sessions.create',
    input: object({ user_id: text(100) }),
    call: (c, input) => c.widget.sessions.create(input as never),
    route: ['POST', '/api/v1/widget/session'],
  },
  {
    name: 'widget.interactive.deposit',
    input: object({
      asset_code: optional(constant('USDC', ['XLM', 'usdc', ''])),
      user_id: text(100),
      api_key: optional(publicKey),
      fiat_amount: optional(positiveAmount(cedis(0.01))),
      destination_address: optional(gAddress),
      lang,
    }),
    call: (c, input) => c.widget.interactive.deposit(input as never),
    route: ['POST', '/api/v1/widget/deposit/interactive'],
  },
  {
    name: 'widget.interactive.withdraw',
    input: object({
      asset_code: optional(constant('USDC', ['XLM', 'usdc', ''])),
      user_id: text(100),
      api_key: optional(publicKey),
      onchain_amount: optional(positiveAmount(fc.integer({ min: 1, max: 1e13 }).map((n) => n / 1e4))),
      lang,
    }),
    call: (c, input) => c.widget.interactive.withdraw(input as never),
    route: ['POST', '/api/v1/widget/withdraw/interactive'],
  },
  {
    name: 'ramp.kyc.initiate',
    input: object({ first_name: text(100), last_name: text(100), phone: localPhone, provider_name: text(100) }),
    call: (c, input) => c.ramp.kyc.initiate(input as never),
    route: ['POST', '/api/v1/ramp/kyc/initiate'],
  },
  {
    name: 'ramp.kyc.verify',
    input: object({
      kyc_id: text(100),
      // 001 does not show the code's length or alphabet: any code without blanks is the service's to judge.
      otp_code: pattern(fc.stringMatching(/^[0-9A-Za-z]{1,20}$/), ['', ' ', ' 123456', '123456 ', '12 3456', '1234\n56', '1'.repeat(21)]),
    }),
    call: (c, input) => c.ramp.kyc.verify(input as never),
    route: ['POST', '/api/v1/ramp/kyc/verify'],
  },
  {
    name: 'ramp.orders.create',
    input: (() => {
      const offRampWithWallet = fc.tuple(offRamp.valid, stellarAddress).map(([order, destination_wallet]) => ({ ...order, destination_wallet }));
      return {
        valid: fc.oneof(onRamp.valid, offRamp.valid),
        cases: [...onRamp.cases, ...offRamp.cases, ...fc.sample(offRampWithWallet, { numRuns: 1, seed: 7 }).map((value) => ({ label: 'offramp with destination_wallet', value }))],
        invalid: fc.oneof(onRamp.invalid, offRamp.invalid, offRampWithWallet),
      };
    })(),
    call: (c, input) => c.ramp.orders.create(input as never),
    route: ['POST', '/api/v1/ramp/orders'],
  },
  {
    name: 'ramp.orders.confirm',
    input: object({ source_wallet: gAddress }),
    call: (c, input) => c.ramp.orders.confirm('RMP-1', input as never),
    route: ['POST', '/api/v1/ramp/orders/RMP-1/confirm'],
  },
  {
    name: 'checkout.payments.create',
    input: object(
      {
        type: optional(constant('checkout', ['invoice', 'CHECKOUT', ''])),
        amount: integer(1, Number.MAX_SAFE_INTEGER),
        currency: countryCode,
        // Recipient fields beyond name and email are sent as given: an existing gateway body migrates unchanged (002 section 9).
        recipient: nested(object({ name: text(), email: email() }, { loose: true })),
        redirect_url: httpUrl,
        meta: optional(
          field(
            'object',
            fc.dictionary(fc.string({ maxLength: 12 }).filter((k) => !['organizationId', 'user_id', 'svc_origin', 'svc_environment', '__proto__'].includes(k)), fc.jsonValue(), { maxKeys: 4 }),
            ['organizationId', 'user_id', 'svc_origin', 'svc_environment'].map((k) => ({ order_id: '42', [k]: 'mine' })),
          ),
        ),
      },
      { loose: true },
    ),
    call: (c, input) => c.checkout.payments.create(input as never),
    route: ['POST', '/api/v1/developer/payments'],
  },
  {
    name: 'checkout.transactions.list',
    input: object({
      status: optional(enumOf(['completed', 'success', 'pending', 'failed', 'cancelled'], ['paid', 'COMPLETED', ''])),
      from: optional(
        field('string', fc.oneof(isoTime, isoTime.map((d) => d.toISOString()), isoTime.map((d) => d.toISOString().slice(0, 10))), [
          'yesterday',
          '2026-13-01',
          '01/02/2026',
          '2026-01-01T25:00:00Z',
          new Date(Number.NaN),
        ]),
      ),
      to: optional(field('string', isoTime, ['tomorrow', new Date(Number.NaN)])),
      limit: optional(integer(1, 100)),
      cursor: optional(field('string', fc.string({ minLength: 1, maxLength: 40 }), ['', 'c'.repeat(501)])),
    }),
    call: (c, input) => c.checkout.transactions.list(input as never),
    route: ['GET', '/api/v1/developer/transactions'],
  },
  {
    name: 'checkout.webhooks.create',
    input: object({ url: httpUrl }),
    call: (c, input) => c.checkout.webhooks.create(input as never),
    route: ['POST', '/api/v1/developer/webhooks'],
  },
  {
    name: 'anchor.customers.put',
    input: (() => {
      const created = object(customer);
      const update = object({ ...Object.fromEntries(Object.entries(customer).map(([k, f]) => [k, optional(f)])), id: pattern(idLike, ['a/b', '..']) });
      // Without `id` an input is a new customer; with one, an update: a case must stay on its side.
      const hasId = (v: unknown) => typeof v === 'object' && v !== null && Object.hasOwn(v, 'id');
      return {
        valid: fc.oneof(created.valid, update.valid),
        cases: [...created.cases.filter((c) => !hasId(c.value)), ...update.cases.filter((c) => hasId(c.value)).map((c) => ({ ...c, label: `update, ${c.label}` }))],
        invalid: fc.oneof(created.invalid.filter((v) => !hasId(v)), update.invalid.filter(hasId)),
      };
    })(),
    call: (c, input) => c.anchor.customers.put(input as never),
    route: ['PUT', '/anchor/customer'],
  },
  {
    name: 'widget.orders.create',
    input: object({
      session: nested(object({ session_id: sessionValue, session_token: sessionValue }, { loose: true })),
      transaction_id: text(100),
      provider: text(40),
      phone: intlPhone,
      amount: optional(positiveAmount(cedis(0.01))),
      destination_address: optional(gAddress),
      quote_id: optional(text(100)),
    }),
    call: (c, input) => c.widget.orders.create(input as never),
    route: ['POST', '/api/v1/widget/orders'],
  },
  {
    name: 'anchor.quotes.prices',
    input: object({ sell_asset: sep38Asset, sell_amount: optional(anchorAmount), country_code: optional(text(6)) }),
    call: (c, input) => c.anchor.quotes.prices(input as never),
    route: ['GET', '/anchor/sep38/prices'],
  },
  {
    name: 'anchor.quotes.price',
    input: object(sep38Price),
    call: (c, input) => c.anchor.quotes.price(input as never),
    route: ['GET', '/anchor/sep38/price'],
  },
  {
    name: 'anchor.quotes.create',
    input: object({ ...sep38Price, expire_after: optional(pattern(isoTime.map((d) => d.toISOString()), ['2026-01-01', '2026-13-01T00:00:00Z', 'tomorrow'])) }),
    call: (c, input) => c.anchor.quotes.create(input as never),
    route: ['POST', '/anchor/sep38/quote'],
  },
  {
    name: 'anchor.transfers.deposit',
    input: anchorInteractive,
    call: (c, input) => c.anchor.transfers.deposit(input as never),
    route: ['POST', '/anchor/transactions/deposit/interactive'],
  },
  {
    name: 'anchor.transfers.withdraw',
    input: anchorInteractive,
    call: (c, input) => c.anchor.transfers.withdraw(input as never),
    route: ['POST', '/anchor/transactions/withdraw/interactive'],
  },
];

describe.each(OBJECT_CASES)('$name', ({ input, call, route }) => {
  it('refuses each known bad input with a ValidationError, sending nothing', async () => {
    const passed: string[] = [];
    for (const { label, value } of input.cases) {
      clients.sent.splice(0);
      const error = await outcomeOf(() => call(clients, value));
      if (!(error instanceof ValidationError) || clients.sent.length > 0) passed.push(`${label} -> ${clients.sent.length > 0 ? 'sent' : String(error)}`);
      else expectRefused(error, clients.sent);
    }
    expect(passed, 'inputs that were not refused before sending').toEqual([]);
  });

  it('refuses any bad input with a ValidationError, sending nothing', async () => {
    await fc.assert(
      fc.asyncProperty(input.invalid, async (bad) => {
        clients.sent.splice(0);
        expectRefused(await outcomeOf(() => call(clients, bad)), clients.sent);
      }),
      { numRuns: RUNS },
    );
  });

  it('passes any good input, sending one request to its route', async () => {
    await fc.assert(
      fc.asyncProperty(input.valid, async (good) => {
        clients.sent.splice(0);
        expectSent(await outcomeOf(() => call(clients, good)), clients.sent, ...route);
      }),
      { numRuns: RUNS },
    );
  });
});

interface IdCase {
  name: string;
  call(c: Clients, id: unknown): unknown;
  method: string;
  /** Where the id goes: a path segment between `before` and `after`, or the `id` query parameter of `path`. */
  at: { before: string; after?: string } | { path: string; query: 'id' };
  /** verify trims the reference before sending. */
  trims?: boolean;
}

const ID_CASES: IdCase[] = [
  { name: 'merchant.apiKeys.revoke', call: (c, id) => c.merchant.apiKeys.revoke(id as string), method: 'DELETE', at: { before: '/api/v1/merchant/apikeys/' } },
  { name: 'widget.customers.get', call: (c, id) => c.widget.customers.get(id as string), method: 'GET', at: { before: '/api/v1/widget/customer/' } },
  { name: 'widget.customers.delete', call: (c, id) => c.widget.customers.delete(id as string), method: 'DELETE', at: { before: '/api/v1/widget/customer/' } },
  { name: 'widget.customers.waitForCustomer', call: (c, id) => c.widget.customers.waitForCustomer(id as string), method: 'GET', at: { before: '/api/v1/widget/customer/' } },
  { name: 'ramp.orders.get', call: (c, id) => c.ramp.orders.get(id as string), method: 'GET', at: { before: '/api/v1/ramp/orders/' } },
  { name: 'ramp.orders.cancel', call: (c, id) => c.ramp.orders.cancel(id as string), method: 'POST', at: { before: '/api/v1/ramp/orders/', after: '/cancel' } },
  {
    name: 'ramp.orders.confirm',
    call: (c, id) => c.ramp.orders.confirm(id as string, { source_wallet: 'GBZXN7PIRZGNMHGA7MUUUF4GWPY5AYPV6LY4UV2GL6VJGIQRXFDNMADI' }),
    method: 'POST',
    at: { before: '/api/v1/ramp/orders/', after: '/confirm' },
  },
  { name: 'ramp.orders.waitForOrder', call: (c, id) => c.ramp.orders.waitForOrder(id as string), method: 'GET', at: { before: '/api/v1/ramp/orders/' } },
  { name: 'checkout.payments.verify', call: (c, id) => c.checkout.payments.verify(id as string), method: 'GET', at: { before: '/api/v1/developer/payments/' }, trims: true },
  { name: 'checkout.webhooks.delete', call: (c, id) => c.checkout.webhooks.delete(id as string), method: 'DELETE', at: { before: '/api/v1/developer/webhooks/' } },
  { name: 'checkout.webhooks.retryEvent', call: (c, id) => c.checkout.webhooks.retryEvent(id as string), method: 'POST', at: { before: '/api/v1/developer/webhooks/events/', after: '/retry' } },
  { name: 'anchor.customers.get', call: (c, id) => c.anchor.customers.get(id as string), method: 'GET', at: { path: '/anchor/customer', query: 'id' } },
  { name: 'anchor.customers.delete', call: (c, id) => c.anchor.customers.delete(id as string), method: 'DELETE', at: { before: '/anchor/customer/' } },
  { name: 'anchor.transfers.get', call: (c, id) => c.anchor.transfers.get(id as string), method: 'GET', at: { path: '/anchor/transaction', query: 'id' } },
  { name: 'anchor.transfers.watch', call: (c, id) => c.anchor.transfers.watch(id as string), method: 'GET', at: { path: '/anchor/transaction', query: 'id' } },
  { name: 'anchor.watchTransaction', call: (c, id) => c.anchor.watchTransaction(id as string), method: 'GET', at: { path: '/anchor/transaction', query: 'id' } },
  { name: 'anchor.quotes.get', call: (c, id) => c.anchor.quotes.get(id as string), method: 'GET', at: { before: '/anchor/sep38/quote/' } },
];

/** What no id may be, on any route: they would be empty, reach another route, or not be text. */
const BAD_IDS = ['', ' ', '.', '..', 'a/b', '../profile', 'a?b', 'a#b', 'a b', 'x'.repeat(201), '\uD800', 'a\uDFFFb'];

describe.each(ID_CASES)('$name', ({ call, method, at, trims }) => {
  it('sends any id it accepts as exactly that one id, on its own route, and refuses the rest before sending', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(anyId, wrongType(field('string', fc.string(), ['']))), async (id) => {
        clients.sent.splice(0);
        const error = await outcomeOf(() => call(clients, id));
        if (error instanceof ValidationError || typeof id !== 'string') return expectRefused(error, clients.sent);
        const expected = trims ? id.trim() : id;
        if ('query' in at) {
          expectSent(error, clients.sent, method, at.path);
          expect(clients.sent[0]!.query.get(at.query)).toBe(expected);
          return;
        }
        const [sent] = clients.sent;
        const segment = sent?.path.slice(at.before.length, sent.path.length - (at.after?.length ?? 0)) ?? '';
        expectSent(error, clients.sent, method, `${at.before}${segment}${at.after ?? ''}`);
        expect(segment).not.toMatch(/\//);
        expect(decodeURIComponent(segment)).toBe(expected);
      }),
      { numRuns: RUNS * 2 },
    );
  });

  it('passes ids, unicode ones included', async () => {
    await fc.assert(
      fc.asyncProperty(idLike, async (id) => {
        clients.sent.splice(0);
        expect(await outcomeOf(() => call(clients, id))).not.toBeInstanceOf(ValidationError);
        expect(clients.sent).toHaveLength(1);
      }),
      { numRuns: RUNS },
    );
  });

  it.each(BAD_IDS.map((id) => [JSON.stringify(id).slice(0, 24), id]))('refuses %s before sending', async (_shown, id) => {
    expectRefused(await outcomeOf(() => call(clients, id)), clients.sent);
  });
});

const ORDER = { type: 'offramp', fiat_amount: 100, user: { first_name: 'Kwame', last_name: 'Mensah', phone: '0241234567', network: 'MTN' } } as const;
const PAYMENT = { amount: 10_000, currency: 'GHS', recipient: { name: 'Ama Mensah', email: 'ama@example.com' }, redirect_url: 'https://shop.example/return' };

describe.each([
  ['ramp.orders.create', (c: Clients, key: unknown) => c.ramp.orders.create(ORDER, { idempotencyKey: key as string }), '/api/v1/ramp/orders', 'x-idempotency-key', idempotencyKey(255)],
  ['checkout.payments.create', (c: Clients, key: unknown) => c.checkout.payments.create(PAYMENT, { idempotencyKey: key as string }), '/api/v1/developer/payments', 'idempotency-key', idempotencyKey(128)],
] as const)('%s idempotencyKey', (_name, call, path, header, idempotencyKey) => {
  it('refuses each key that cannot be sent as it is (control characters, non-ASCII, surrounding blanks, too long) before sending', async () => {
    for (const { value } of idempotencyKey.cases) {
      clients.sent.splice(0);
      expectRefused(await outcomeOf(() => call(clients, value)), clients.sent);
    }
  });

  it('refuses any such key before sending', async () => {
    await fc.assert(
      fc.asyncProperty(idempotencyKey.bad, async (key) => {
        clients.sent.splice(0);
        expectRefused(await outcomeOf(() => call(clients, key)), clients.sent);
      }),
      { numRuns: RUNS },
    );
  });

  it('sends any other key exactly as given', async () => {
    await fc.assert(
      fc.asyncProperty(idempotencyKey.valid, async (key) => {
        clients.sent.splice(0);
        expectSent(await outcomeOf(() => call(clients, key)), clients.sent, 'POST', path);
        expect(clients.sent[0]!.headers.get(header)).toBe(key);
      }),
      { numRuns: RUNS },
    );
  });
});

describe('checkout.payments.fromRedirect', () => {
  const base = fc.webUrl({ validSchemes: ['https'] }).map((u) => u.split(/[?#]/)[0]!);

  it('reads the session reference of any redirect that names one', () => {
    fc.assert(
      fc.property(base, fc.constantFrom('sessionRef', 'session_ref', 'session_id'), idLike, (url, name, ref) => {
        expect(clients.checkout.payments.fromRedirect(`${url}?order=42&${name}=${encodeURIComponent(ref)}`)).toBe(ref.trim());
      }),
      { numRuns: RUNS },
    );
  });

  it('refuses any redirect that names none with a ValidationError', () => {
    fc.assert(
      fc.property(base, fc.dictionary(fc.stringMatching(/^[a-z]{1,8}$/), fc.string({ maxLength: 8 }), { maxKeys: 3 }), (url, params) => {
        const query = new URLSearchParams(params);
        expect(() => clients.checkout.payments.fromRedirect(`${url}?${query}&sessionRef=%20`)).toThrow(ValidationError);
      }),
      { numRuns: RUNS },
    );
  });
});
