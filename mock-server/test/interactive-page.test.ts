/**
 * The interactive page over HTTP, in-process and standalone: what the page is served with
 * (token check, language, theme, CSP, where it may post), and the JSON steps its script
 * takes. The page's behaviour in a real browser is in interactive-page-browser.test.ts.
 */
import { createHash } from 'node:crypto';
import { Keypair } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/merchants.js';
import { call, MODES, type MockEnv } from './helpers/env.js';
import { advance, completeForm, createShop, PHONE, SHOP_ORIGIN, signIn, startDeposit, startWithdraw, type Shop } from './helpers/interactive.js';
import { snapshot } from './helpers/merchant.js';

interface Page {
  status: number;
  headers: Headers;
  html: string;
  /** The settings the page's script reads (`#ramp-config`), when the form was served. */
  config: any;
}

async function openPage(url: string, headers: Record<string, string> = {}): Promise<Page> {
  const res = await fetch(url, { headers });
  const html = await res.text();
  const json = html.match(/<script type="application\/json" id="ramp-config">(.*?)<\/script>/s)?.[1];
  return { status: res.status, headers: res.headers, html, config: json ? JSON.parse(json) : undefined };
}

/** One call of the page's API, as its script makes it. */
async function step(page: Page, method: string, path: string, body?: unknown) {
  const res = await fetch(`${page.config.api}/${path}`, {
    method,
    headers: { authorization: `Bearer ${page.config.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

const otpFor = async (env: MockEnv, phone: string) => (await call(env, 'GET', `/_mock/otp?phone=${encodeURIComponent(phone)}`)).body.code as string;

const inlineScript = (html: string) => html.match(/<script>([\s\S]*?)<\/script>/)![1]!;
const inlineStyle = (html: string) => html.match(/<style>([\s\S]*?)<\/style>/)![1]!;
const sha256 = (text: string) => createHash('sha256').update(text).digest('base64');

describe.each(MODES)('interactive page, %s', (_name, start) => {
  let env: MockEnv;
  let shop: Shop;
  const wallet = Keypair.random().publicKey();
  beforeAll(async () => {
    env = await start({ seed: 21 });
    shop = await createShop(env);
  });
  afterAll(() => env.close());

  describe('the link', () => {
    it('opens the buy form in English, with the three providers and the limits', async () => {
      const { url, id } = await startDeposit(env, shop);
      const page = await openPage(url);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.html).toMatch(/^<!doctype html>\n<html lang="en">/);
      expect(page.html).toContain('<h1>Buy USDC</h1>');
      for (const name of ['MTN MoMo', 'Telecel Cash', 'AirtelTigo Money']) expect(page.html).toContain(name);
      // 10 GHS buys less than 1 USDC: the minimum is the smallest amount that gives 1 USDC,
      // (15.98 - 0.16 platform fee - 0.16 network fee) / 15.66 = 1.00; the maximum is the starter tier's.
      expect(page.config.amount).toEqual({ preset: null, min: 15.98, max: 5000, currency: 'GHS' });
      expect(page.html).toContain('From 15.98 to 5,000.00 GHS.');
      expect(page.config.transaction).toMatchObject({ id, kind: 'deposit', status: 'incomplete' });
      expect(page.config.destination).toBeNull();
    });

    it('pins its own script and style by hash and lets only the key\'s domains frame it', async () => {
      const page = await openPage((await startDeposit(env, shop)).url);
      const csp = page.headers.get('content-security-policy')!;
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain(`script-src 'sha256-${sha256(inlineScript(page.html))}'`);
      expect(csp).toContain(`style-src 'sha256-${sha256(inlineStyle(page.html))}'`);
      expect(csp).toContain("connect-src 'self'");
      expect(csp).toContain(`frame-ancestors ${SHOP_ORIGIN}`);
      expect(page.headers.get('referrer-policy')).toBe('no-referrer');
      expect(page.headers.get('cache-control')).toBe('no-store');
      expect(page.html).not.toMatch(/<(link|img)\b|src=/);
    });

    it('shows an error page, not the form, for an unknown or missing token and for a link 30 minutes after its start, its form finished or not', async () => {
      const unknown = await openPage(`${env.backend.urls.interactive}?token=${'ab'.repeat(24)}`);
      const missing = await openPage(env.backend.urls.interactive);
      // A finished form's link shows the status (the next test) until then, not after.
      const used = await startDeposit(env, shop, { fiat_amount: 50, destination_address: wallet });
      await completeForm(env, used.id);
      const expired = await startDeposit(env, shop);
      await advance(env, 30 * 60);
      for (const page of [unknown, missing, await openPage(used.url), await openPage(expired.url)]) {
        expect(page.status).toBe(404);
        expect(page.html).toContain('<h1>This link cannot be used</h1>');
        expect(page.config).toBeUndefined();
        expect(page.headers.get('content-security-policy')).toContain("script-src 'none'");
      }
    });

    it('opens the status, not the form, of a transaction whose form was finished before it, for 30 minutes from its start', async () => {
      const { url, id } = await startDeposit(env, shop, { fiat_amount: 100, destination_address: wallet });
      await completeForm(env, id);
      const page = await openPage(url);
      expect(page.status).toBe(200);
      expect(page.config.transaction).toMatchObject({ id, status: 'pending_user_transfer_start', amount_in: '100.00' });
      expect(page.config.finished).toEqual({ provider: 'mtn', phone: PHONE });
      expect(page.config.order).toBeNull();
      expect(page.html).toContain('<form id="form" novalidate hidden>');
      expect(page.html).toContain('<p id="status" role="status" aria-live="polite">Approve the payment prompt on your phone.</p>');
      // Its page token follows the transaction like that of a page opened before.
      expect((await step(page, 'GET', 'transaction')).body.data.transaction.status).toBe('pending_user_transfer_start');
      await advance(env, 30 * 60 - 1);
      expect((await openPage(url)).status).toBe(200);
      await advance(env, 1);
      const late = await openPage(url);
      expect(late.status).toBe(404);
      expect(late.config).toBeUndefined();
    });

    it('speaks the language of the request, the lang query parameter first, English otherwise', async () => {
      const fr = await openPage((await startDeposit(env, shop, { lang: 'fr' })).url);
      expect(fr.html).toMatch(/<html lang="fr">/);
      expect(fr.html).toContain('<h1>Acheter des USDC</h1>');
      expect(fr.config.strings.send_code).toBe('Envoyer le code');
      const query = await openPage(`${(await startWithdraw(env, shop)).url}&lang=fr-GH`);
      expect(query.html).toContain('<h1>Vendre des USDC</h1>');
      const unsupported = await openPage((await startDeposit(env, shop, { lang: 'de' })).url);
      expect(unsupported.html).toMatch(/<html lang="en">/);
    });

    it("uses the merchant's theme, and never a value that is not a colour or a length", async () => {
      shop.merchant.widget_config.theme = { primary_color: '#1d4ed8', border_radius: '4px' };
      const themed = await openPage((await startDeposit(env, shop)).url);
      expect(inlineStyle(themed.html)).toContain(':root{--ramp-primary:#1d4ed8;--ramp-on-primary:#ffffff;--ramp-focus:#1d4ed8;--ramp-radius:4px}');
      shop.merchant.widget_config.theme = { primary_color: 'red}</style><script>alert(1)</script>', border_radius: '1px;x:y' };
      const hostile = await openPage((await startDeposit(env, shop)).url);
      expect(inlineStyle(hostile.html)).toContain('--ramp-primary:#0f766e;');
      expect(inlineStyle(hostile.html)).toContain('--ramp-radius:12px}');
      expect(hostile.html).not.toContain('alert(1)');
      // A light colour gets dark text and a dark focus ring, so both stay visible.
      shop.merchant.widget_config.theme = { primary_color: '#fde047', border_radius: '0' };
      const light = await openPage((await startDeposit(env, shop)).url);
      expect(inlineStyle(light.html)).toContain('--ramp-on-primary:#111827;--ramp-focus:#111827;');
      shop.merchant.widget_config.theme = { primary_color: '#0f766e', border_radius: '12px' };
    });

    it('shows the amount and address the merchant set instead of asking for them', async () => {
      const page = await openPage((await startDeposit(env, shop, { fiat_amount: 120, destination_address: wallet })).url);
      expect(page.html).toContain(`Amount set by ${shop.merchant.name}: 120.00 GHS`);
      expect(page.html).toContain(`Your USDC goes to ${wallet}.`);
      expect(page.html).not.toContain('id="amount"');
      expect(page.html).not.toContain('id="destination"');
      const sell = await openPage((await startWithdraw(env, shop)).url);
      // Sell limits in USDC: 1 USDC minimum; at most what pays out 5,000 GHS at 15.35 after fees.
      expect(sell.config.amount).toMatchObject({ min: 1, currency: 'USDC' });
      expect(sell.config.amount.max).toBeCloseTo(5000 / 15.35 / 0.99, 0);
      expect(sell.html).not.toContain('id="destination"');
    });

    it("shows a SEP-38 quote's guaranteed rate with its amount fixed, and leaves a direct client's form to its own API", async () => {
      const token = await signIn(env, Keypair.random());
      const usdc = (await call(env, 'GET', '/anchor/sep38/info')).body.assets[0].asset;
      const quote = await call(env, 'POST', '/anchor/sep38/quote', {
        headers: { authorization: `Bearer ${token}` },
        body: { sell_asset: 'iso4217:GHS', buy_asset: usdc, sell_amount: '250', context: 'sep24' },
      });
      expect(quote.status).toBe(201);
      const started = await call(env, 'POST', '/anchor/transactions/deposit/interactive', { headers: { authorization: `Bearer ${token}` }, body: { asset_code: 'USDC', quote_id: quote.body.id } });
      expect(started.status).toBe(200);
      const page = await openPage(started.body.url);
      expect(page.config.guaranteed).toEqual({ rate: Number(quote.body.price), expires_at: quote.body.expires_at });
      expect(page.config.amount).toMatchObject({ preset: 250, min: 250, max: 250 });
      expect(page.config.order).toBeNull();
      const until = `${quote.body.expires_at.slice(11, 16)} UTC`;
      expect(page.html).toContain(`<p id="guaranteed">Guaranteed rate: 1 USDC = ${Number(quote.body.price).toFixed(2)} GHS until ${until}.</p>`);
      const breakdown = await step(page, 'POST', 'quote', { amount: 250 });
      expect(breakdown.body.data.amount_out).toEqual({ amount: Number(quote.body.buy_amount), currency: 'USDC' });
    });
  });

  describe('where it posts its status', () => {
    it("addresses the key's only allowed domain, whatever the link asks for", async () => {
      const { url } = await startDeposit(env, shop);
      expect((await openPage(url)).config.targetOrigin).toBe(SHOP_ORIGIN);
      expect((await openPage(`${url}&origin=${encodeURIComponent('https://evil.example')}`)).config.targetOrigin).toBe(SHOP_ORIGIN);
    });

    it('picks the asked-for origin among several allowed domains, and none when it is not one of them', async () => {
      const other = 'https://app.shop.example';
      const { key } = await createApiKey(env.backend.context, shop.merchant, { key_type: 'public', domains: [SHOP_ORIGIN, other] });
      const { url } = await startDeposit(env, shop, { api_key: key });
      expect((await openPage(`${url}&origin=${encodeURIComponent(other)}`)).config.targetOrigin).toBe(other);
      expect((await openPage(url, { referer: `${other}/checkout?step=2` })).config.targetOrigin).toBe(other);
      expect((await openPage(`${url}&origin=${encodeURIComponent('https://evil.example')}`)).config.targetOrigin).toBeNull();
      const page = await openPage(url);
      expect(page.config.targetOrigin).toBeNull();
      expect(page.headers.get('content-security-policy')).toContain(`frame-ancestors ${SHOP_ORIGIN} ${other}`);
    });

    it('follows the embedding page when the key is not restricted to domains', async () => {
      const { key } = await createApiKey(env.backend.context, shop.merchant, { key_type: 'public', domains: [] });
      const { url } = await startDeposit(env, shop, { api_key: key });
      expect((await openPage(url, { referer: 'http://localhost:5173/buy' })).config.targetOrigin).toBe('http://localhost:5173');
      expect((await openPage(url)).config.targetOrigin).toBeNull();
      expect((await openPage(url)).headers.get('content-security-policy')).toContain('frame-ancestors *');
    });
  });

  describe('the steps of a buy', () => {
    it('sends a code, checks it, prices the amount and finishes the form', async () => {
      const { url, id } = await startDeposit(env, shop);
      const page = await openPage(url);

      const sent = await step(page, 'POST', 'otp', { phone: '024 123 4567' });
      expect(sent.status).toBe(200);
      expect(sent.body.data).toMatchObject({ phone: '+233241234567' });
      const code = await otpFor(env, '+233241234567');
      expect(code).toMatch(/^\d{6}$/);

      const verified = await step(page, 'POST', 'verify', { phone: '+233241234567', code });
      expect(verified.body.data).toEqual({ phone: '+233241234567', verified: true });

      const quote = await step(page, 'POST', 'quote', { amount: 100 });
      expect(quote.status).toBe(200);
      // 1 % of 100 GHS, plus 0.01 USDC at 15.66 GHS = 0.16; (100 - 1.16) / 15.66 = 6.31 USDC.
      expect(quote.body.data).toEqual({
        amount_in: { amount: 100, currency: 'GHS' },
        platform_fee: { amount: 1, currency: 'GHS', bps: 100, fee_base_bps: 100, fee_markup_bps: 0 },
        network_fee: { amount: 0.16, currency: 'GHS' },
        total_fees: { amount: 1.16, currency: 'GHS' },
        rate: 15.66,
        amount_out: { amount: 6.31, currency: 'USDC' },
      });

      const done = await step(page, 'POST', 'complete', { provider: 'mtn', phone: '+233241234567', amount: 100, destination_address: wallet });
      expect(done.status, JSON.stringify(done.body)).toBe(200);
      expect(done.body.data.transaction).toMatchObject({ id, status: 'pending_user_transfer_start', amount_in: '100.00', amount_out: '6.31', to: wallet });
    });

    it('reports every status passed since the one the page saw last, in order', async () => {
      const { url, id } = await startDeposit(env, shop, { fiat_amount: 100, destination_address: wallet });
      const page = await openPage(url);
      await completeForm(env, id);
      await call(env, 'POST', `/_mock/mobile-money/${id}/approve`);
      await advance(env, 10);
      const polled = await step(page, 'GET', 'transaction?since=pending_user_transfer_start');
      expect(polled.status).toBe(200);
      expect(polled.body.data.history.map((t: any) => t.status)).toEqual(['pending_anchor', 'pending_stellar', 'completed']);
      expect(polled.body.data.history.map((t: any) => t.id)).toEqual([id, id, id]);
      expect(polled.body.data.history.slice(0, 2).map((t: any) => t.completed_at)).toEqual([null, null]);
      expect(polled.body.data.transaction).toEqual(polled.body.data.history[2]);
      expect(polled.body.data.transaction.completed_at).not.toBeNull();
      const caughtUp = await step(page, 'GET', 'transaction?since=completed');
      expect(caughtUp.body.data.history.map((t: any) => t.status)).toEqual(['completed']);
    });

    it('ties each refusal to the field it is about, and changes nothing', async () => {
      // A number this customer never verified (a verified one would need no code).
      const phone = '+233551234567';
      const { url, id } = await startDeposit(env, shop);
      const page = await openPage(url);
      const before = snapshot(env.backend.store);

      const badPhone = await step(page, 'POST', 'otp', { phone: '12' });
      expect(badPhone.status).toBe(400);
      expect(badPhone.body.error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'phone' });

      const low = await step(page, 'POST', 'quote', { amount: 12 });
      expect(low.status).toBe(422);
      expect(low.body.error).toEqual({ code: 'AMOUNT_OUT_OF_RANGE', field: 'amount', message: 'Crypto amount is below the minimum of 1 USDC' });
      const high = await step(page, 'POST', 'quote', { amount: 5000.01 });
      expect(high.body.error).toMatchObject({ code: 'AMOUNT_OUT_OF_RANGE', field: 'amount' });
      expect(high.body.error.message).toContain('5000 GHS');

      await step(page, 'POST', 'otp', { phone: phone });
      const wrong = await step(page, 'POST', 'verify', { phone: phone, code: (Number(await otpFor(env, phone)) ^ 1).toString().padStart(6, '0') });
      expect(wrong.status).toBe(422);
      expect(wrong.body.error).toMatchObject({ code: 'INVALID_OTP', field: 'code', message: 'Wrong code; 4 tries left' });

      const unverified = await step(page, 'POST', 'complete', { provider: 'mtn', phone: phone, amount: 100, destination_address: wallet });
      expect(unverified.body.error).toMatchObject({ code: 'PHONE_NOT_VERIFIED', field: 'code' });
      const badAddress = await step(page, 'POST', 'complete', { provider: 'mtn', phone: phone, amount: 100, destination_address: 'GABC' });
      expect(badAddress.body.error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'destination' });
      const badProvider = await step(page, 'POST', 'complete', { provider: 'paypal', phone: phone, amount: 100, destination_address: wallet });
      expect(badProvider.body.error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'provider' });

      expect(env.backend.store.anchor.transactions.get(id)!.status).toBe('incomplete');
      const after = snapshot(env.backend.store);
      expect(after.orders).toEqual(before.orders);
      expect(after.deliveries).toEqual(before.deliveries);
    });

    it('limits how many codes a page can send', async () => {
      const page = await openPage((await startDeposit(env, shop)).url);
      for (let i = 0; i < 5; i++) expect((await step(page, 'POST', 'otp', { phone: PHONE })).status).toBe(200);
      const sixth = await step(page, 'POST', 'otp', { phone: PHONE });
      expect(sixth.status).toBe(429);
      expect(sixth.body.error).toMatchObject({ code: 'RATE_LIMITED', field: 'phone' });
    });

    it('answers 401 without the page token, and refuses a finished form with 409', async () => {
      const { url, id } = await startDeposit(env, shop, { fiat_amount: 100, destination_address: wallet });
      const page = await openPage(url);
      const anonymous = await fetch(`${page.config.api}/transaction`);
      expect(anonymous.status).toBe(401);
      const forged = await step({ ...page, config: { ...page.config, token: `${page.config.token}x` } }, 'GET', 'transaction');
      expect(forged.status).toBe(401);
      await completeForm(env, id);
      const again = await step(page, 'POST', 'otp', { phone: PHONE });
      expect(again.status).toBe(409);
      expect(again.body.error.code).toBe('INVALID_STATE');
      // The page still follows the transaction after its link was used.
      expect((await step(page, 'GET', 'transaction')).body.data.transaction.status).toBe('pending_user_transfer_start');
    });
  });

  describe('a sell', () => {
    it("answers the anchor's address and memo once the form is finished", async () => {
      const { url, id } = await startWithdraw(env, shop, { onchain_amount: 20 });
      const page = await openPage(url);
      expect(page.config.transaction.kind).toBe('withdrawal');
      await step(page, 'POST', 'otp', { phone: PHONE });
      await step(page, 'POST', 'verify', { phone: PHONE, code: await otpFor(env, PHONE) });
      const done = await step(page, 'POST', 'complete', { provider: 'telecel', phone: PHONE });
      expect(done.status, JSON.stringify(done.body)).toBe(200);
      const tx = done.body.data.transaction;
      expect(tx).toMatchObject({ id, kind: 'withdrawal', status: 'pending_user_transfer_start', amount_in: '20.00', withdraw_memo_type: 'id' });
      expect(tx.withdraw_anchor_account).toMatch(/^G[A-Z2-7]{55}$/);
      expect(tx.withdraw_memo).toMatch(/^[1-9]\d{11}$/);

      const info = await openPage(tx.more_info_url);
      expect(info.status).toBe(200);
      expect(info.html).toContain('Waiting for your USDC.');
      expect(info.html).toContain(tx.withdraw_anchor_account);
      expect(info.html).toContain(tx.withdraw_memo);
      expect((await openPage(`${env.backend.urls.interactive}/transaction?id=nope`)).status).toBe(404);
    });
  });
});
