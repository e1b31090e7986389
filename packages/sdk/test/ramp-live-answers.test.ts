/**
 * The ramp client against answers the live service may give: 001 shows an order's reference
 * and the fields of its section 2, KYC's `kyc_id`, and nothing else of the answers ("not
 * shown", field names included). A stand-in of the service on 127.0.0.1 answers with only
 * those, or with the other fields in another form; the merchant's calls must still read them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RampClient, ResponseValidationError, ValidationError } from '../src/index.js';
import { envelope, json, startTestServer, type TestServer } from './helpers/http-server.js';

const REFERENCE = 'RMP-20261125-7f1c6a52-3d1e-4c1b-9a8f-2b6e0c1d4a55';
const WALLET = 'GBZXN7PIRZGNMHGA7MUUUF4GWPY5AYPV6LY4UV2GL6VJGIQRXFDNMADI';
const SECRET = 'sika_secret_0123456789abcdef0123456789abcdef0123456789abcdef';
const user = { first_name: 'Kwame', last_name: 'Mensah', phone: '0241234567', network: 'MTN' };

describe('RampClient reads what 001 lets the live service answer', () => {
  let server: TestServer;
  let ramp: RampClient;
  /** The next answer, by method and path. */
  const answers = new Map<string, { status: number; body?: unknown }>();
  beforeAll(async () => {
    server = await startTestServer((req, res) => {
      const answer = answers.get(`${req.method} ${req.url}`);
      if (!answer) return json(res, 404, { error: { code: 'NOT_FOUND', message: 'not found' } });
      if (answer.body === undefined) return void res.writeHead(answer.status).end();
      json(res, answer.status, answer.body);
    });
    ramp = new RampClient({ baseUrl: server.url, secretKey: SECRET, maxRetries: 0 });
  });
  afterAll(() => server.close());

  it('creates an order whose answer has only its reference, as quote_locked', async () => {
    answers.set('POST /api/v1/ramp/orders', { status: 201, body: envelope({ reference: REFERENCE }) });
    const order = await ramp.orders.create({ type: 'onramp', fiat_amount: 100, destination_wallet: WALLET, user });
    expect(order).toEqual({ reference: REFERENCE, status: 'quote_locked' });
  });

  it('keeps a status the creation answer names', async () => {
    answers.set('POST /api/v1/ramp/orders', { status: 200, body: envelope({ reference: REFERENCE, status: 'fiat_pending' }) });
    const order = await ramp.orders.create({ type: 'onramp', fiat_amount: 100, destination_wallet: WALLET, user });
    expect(order.status).toBe('fiat_pending');
  });

  it('reads amounts sent as decimal strings as numbers, and leaves out fields of another shape instead of failing', async () => {
    const data = {
      reference: REFERENCE,
      status: 'quote_locked',
      fiat_amount: '100.00',
      crypto_amount: '6.25',
      rate: '16.0000',
      fees: { platform_fee: '1.50', network_fee: 0, total: '1.50' },
      deposit: { stellar_address: WALLET, memo: 'RMP1A2B3C4D' },
      expires_at: '2026-11-25T05:05:00.000Z',
      user: { phone: '0241234567' },
      refunds: null,
      type: 'offramp',
      merchant_stellar_address: WALLET,
    };
    answers.set('POST /api/v1/ramp/orders', { status: 201, body: envelope(data) });
    const order = await ramp.orders.create({ type: 'offramp', fiat_amount: 100, user });
    expect(order).toMatchObject({ reference: REFERENCE, fiat_amount: 100, crypto_amount: 6.25, rate: 16, fees: { platform_fee: 1.5, network_fee: 0, total: 1.5 } });
    expect(order.deposit).toEqual({ stellar_address: WALLET, memo: 'RMP1A2B3C4D' });
    expect(order).not.toHaveProperty('user');
    expect(order).not.toHaveProperty('refunds');
    // A field the SDK does not name stays readable, as it came.
    expect((order as Record<string, unknown>).merchant_stellar_address).toBe(WALLET);
  });

  it("keeps the usable members of an object field, so an off-ramp's address survives a memo of another form", async () => {
    const path = `/api/v1/ramp/orders/${REFERENCE}`;
    const data = { status: 'crypto_pending', deposit: { stellar_address: WALLET, memo: 4242, memo_type: 'id' }, fees: { platform_fee: 'n/a', total: '1.50' } };
    answers.set(`GET ${path}`, { status: 200, body: envelope(data) });
    const order = await ramp.orders.get(REFERENCE);
    expect(order.deposit).toEqual({ stellar_address: WALLET, memo_type: 'id' });
    expect(order.fees).toEqual({ total: 1.5 });
  });

  it('looks up an order whose answer carries only the fields of 001 section 2, and names its reference', async () => {
    const path = `/api/v1/ramp/orders/${REFERENCE}`;
    answers.set(`GET ${path}`, { status: 200, body: envelope({ status: 'completed', crypto_tx_hash: 'a'.repeat(64), completed_at: '2026-11-25T05:00:00Z' }) });
    expect(await ramp.orders.get(REFERENCE)).toEqual({ reference: REFERENCE, status: 'completed', crypto_tx_hash: 'a'.repeat(64), completed_at: '2026-11-25T05:00:00Z' });

    answers.set(`GET ${path}`, { status: 200, body: envelope({ reference: null, status: 'expired', expires_at: '2026-11-25T05:05:00Z' }) });
    expect(await ramp.orders.get(REFERENCE)).toEqual({ reference: REFERENCE, status: 'expired', expires_at: '2026-11-25T05:05:00Z' });

    answers.set(`GET ${path}`, { status: 200, body: envelope({ status: 'failed', failure_reason: 'payout failed', fiat_amount: 'n/a' }) });
    const { succeeded, value } = await ramp.orders.waitForOrder(REFERENCE);
    expect(succeeded).toBe(false);
    expect(value).toEqual({ reference: REFERENCE, status: 'failed', failure_reason: 'payout failed' });
  });

  it('still refuses an answer whose documented fields are unusable', async () => {
    answers.set(`GET /api/v1/ramp/orders/${REFERENCE}`, { status: 200, body: envelope({ status: 7, completed_at: 1 }) });
    const error = await ramp.orders.get(REFERENCE).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    // The error names the field that is unusable, as the service sent it.
    expect((error as ResponseValidationError).issues.map((issue) => issue.path)).toContainEqual(['status']);
    answers.set('POST /api/v1/ramp/orders', { status: 201, body: envelope({ status: 'quote_locked' }) });
    await expect(ramp.orders.create({ type: 'offramp', fiat_amount: 100, user })).rejects.toBeInstanceOf(ResponseValidationError);
  });

  it('reads the initiate answer with only kyc_id, and any verify answer, naming the kyc_id it verified', async () => {
    answers.set('POST /api/v1/ramp/kyc/initiate', { status: 200, body: envelope({ kyc_id: 'k-1', status: 'otp_sent', otp_expires_at: 600 }) });
    expect(await ramp.kyc.initiate({ first_name: 'Kwame', last_name: 'Mensah', phone: '0241234567', provider_name: 'MTN' })).toEqual({ kyc_id: 'k-1', status: 'otp_sent' });

    for (const answer of [{ status: 200, body: envelope({ verified: true }) }, { status: 200, body: envelope(null) }, { status: 200, body: { message: 'verified' } }, { status: 204 }]) {
      answers.set('POST /api/v1/ramp/kyc/verify', answer);
      expect(await ramp.kyc.verify({ kyc_id: 'k-1', otp_code: '123456' })).toMatchObject({ kyc_id: 'k-1' });
    }
  });

  it("sends a code of any length (001 does not show it; the mock's are 6 digits), refusing only a blank one before sending", async () => {
    answers.set('POST /api/v1/ramp/kyc/verify', { status: 200, body: envelope({ kyc_id: 'k-2', status: 'verified' }) });
    for (const otp_code of ['4821', '48213907', 'A7K2Q9']) {
      const before = server.requests.length;
      expect(await ramp.kyc.verify({ kyc_id: 'k-2', otp_code })).toEqual({ kyc_id: 'k-2', status: 'verified' });
      expect(JSON.parse(server.requests[before]!.body)).toEqual({ kyc_id: 'k-2', otp_code });
    }
    const before = server.requests.length;
    for (const otp_code of ['', '   ', '12 34']) await expect(ramp.kyc.verify({ kyc_id: 'k-2', otp_code })).rejects.toBeInstanceOf(ValidationError);
    expect(server.requests.length).toBe(before);
  });
});
