/**
 * Test mode only (the mock server): what a real customer does outside your site, played
 * through the mock's control API (`/_mock/…`). Not part of an integration: these routes exist
 * only when the config names a mock server, and the page never talks to the control API itself.
 */
import { Router } from 'express';
import type { TransactionOwners } from '@sikaramp/sdk/handlers';
import type { Config } from '../config.ts';

/** The test phone in the international format the interactive page takes. */
export const testPhone = (config: Config) => `+233${config.customer.phone.slice(1)}`;

export function testModeRoutes({ config, owners }: { config: Config; owners: TransactionOwners }): Router {
  const router = Router();
  const mock = config.mockUrl!;
  const control = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${mock}/_mock${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = (await response.json()) as any;
    if (!response.ok) throw new Error(`mock control ${method} ${path}: ${response.status} ${answer?.error?.message ?? ''}`);
    return answer;
  };

  /** The code the interactive page sent to the test phone: in real life, an SMS. */
  router.get('/api/test/otp', async (_req, res) => {
    const response = await fetch(`${mock}/_mock/otp?phone=${encodeURIComponent(testPhone(config))}`);
    res.json(response.ok ? { phone: testPhone(config), code: ((await response.json()) as { code: string }).code } : { phone: testPhone(config), code: null });
  });

  /** The customer's wallet pays a sell: exactly the amount, to the anchor's address, with the memo. */
  router.post('/api/test/sell/:id/pay', async (req, res) => {
    const id = req.params.id;
    if ((await owners.get(id)) !== config.customer.id) return void res.status(404).json({ error: 'no such sell started here' });
    const { transaction } = await control('GET', `/transactions/${encodeURIComponent(id)}`);
    if (transaction.kind !== 'withdrawal' || transaction.status !== 'pending_user_transfer_start') {
      return void res.status(409).json({ error: `the sell is ${transaction.status}, not waiting for USDC` });
    }
    await control('POST', '/stellar/payments', {
      from: config.customer.wallet,
      to: transaction.withdraw_anchor_account,
      amount: transaction.amount_in,
      asset_code: 'USDC',
      memo: transaction.withdraw_memo,
    });
    res.json({ paid: true, amount: transaction.amount_in, memo: transaction.withdraw_memo });
  });

  return router;
}
