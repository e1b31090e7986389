/**
 * The Mobile Money rail's records on the dashboard's snapshot (`GET /_mock/snapshot`): each
 * prompt and payout on its phone with its history, every status change with the clock time it
 * happened; and an answer that comes too late (approving a prompt that timed out, failing a
 * payout that was paid) refused with 409 INVALID_STATE, in the client and over HTTP, changing
 * nothing. Driven as a developer testing against the mock drives it: the API, the control
 * client, raw control calls. In-process and standalone.
 */
import { Keypair } from '@stellar/stellar-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createControlClient, HttpError, type ControlClient } from '../src/client.js';
import type { DashboardSnapshot } from '../src/handlers/dashboard/model.js';
import { call, MODES, type MockEnv } from './helpers/env.js';
import { signIn } from './helpers/interactive.js';
import { sellUntilPayout } from './ramp-setup.js';

const START = Date.parse('2026-03-02T10:00:00.000Z');
const at = (seconds: number) => new Date(START + seconds * 1000).toISOString();
const steps = (history: { from: string | null; to: string; event: string; at: string }[]) => history.map((h) => [h.event, h.from, h.to, h.at]);

type Phone = DashboardSnapshot['phones'][number];

describe.each(MODES)('Mobile Money prompts and payouts: history on the dashboard, late answers refused, mock %s', (_mode, start) => {
  let env: MockEnv;
  let control: ControlClient;
  let elapsed = 0;
  const advance = async (seconds: number) => {
    elapsed += seconds;
    await control.clock.advance(seconds);
  };
  const phoneIn = async (number: string): Promise<Phone> => {
    const found = (await control.dashboard.snapshot()).phones.find((p) => p.number === number);
    expect(found, `phone ${number} on the dashboard`).toBeDefined();
    return found!;
  };
  /** The snapshot's ETag now: the same one later means nothing on the dashboard changed. */
  const etag = async () => (await fetch(`${env.origin}/_mock/snapshot`)).headers.get('etag')!;
  const unchangedSince = async (tag: string) =>
    expect((await fetch(`${env.origin}/_mock/snapshot`, { headers: { 'if-none-match': tag } })).status).toBe(304);

  /** An interactive buy whose form is finished at the current clock time: its prompt goes to `phone`. */
  const deposit = async (phone: string) => {
    const token = await signIn(env, Keypair.random());
    const started = await call(env, 'POST', '/anchor/transactions/deposit/interactive', {
      headers: { authorization: `Bearer ${token}` },
      body: { asset_code: 'USDC', amount: '40' },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    await control.anchor.completeInteractive(started.body.id, { provider: 'mtn', phone, amount: 40 });
    return started.body.id as string;
  };

  beforeAll(async () => {
    env = await start({ clockStart: START });
    control = createControlClient({ baseUrl: env.origin });
  });
  afterAll(() => env.close());

  it("shows an approved prompt's history, and refuses letting it time out or declining it afterwards, changing nothing", async () => {
    const number = '+233201110001';
    const txId = await deposit(number);
    const t0 = elapsed;
    await advance(10);
    const approved = await control.rails.approvePrompt(txId);
    expect(approved.status).toBe('approved');

    const before = (await phoneIn(number)).prompts.find((p) => p.id === approved.id)!;
    expect(before).toMatchObject({ status: 'approved', owner: txId, sent_at: at(t0), settled_at: at(t0 + 10) });
    expect(steps(before.history)).toEqual([
      ['created', null, 'pending', at(t0)],
      ['approve', 'pending', 'approved', at(t0 + 10)],
    ]);

    const tag = await etag();
    const late = await control.rails.timeOutPrompt(approved.id).catch((e: unknown) => e);
    expect(late).toBeInstanceOf(HttpError);
    expect(late).toMatchObject({ status: 409, code: 'INVALID_STATE', message: 'cannot time out when status is approved' });
    const declined = await call(env, 'POST', `/_mock/mobile-money/${approved.id}/decline`);
    expect(declined.status).toBe(409);
    expect(declined.body.error).toMatchObject({ code: 'INVALID_STATE', message: 'cannot decline when status is approved' });
    await unchangedSince(tag);
    expect((await phoneIn(number)).prompts.find((p) => p.id === approved.id)).toEqual(before);
  });

  it('shows a prompt that timed out on the clock, and refuses approving it late (client and HTTP), changing nothing', async () => {
    const number = '+233201110002';
    const txId = await deposit(number);
    const t0 = elapsed;
    await advance(120);

    const [prompt] = (await phoneIn(number)).prompts;
    expect(prompt).toMatchObject({ status: 'timed_out', owner: txId, settled_at: at(t0 + 120) });
    expect(steps(prompt!.history)).toEqual([
      ['created', null, 'pending', at(t0)],
      ['time_out', 'pending', 'timed_out', at(t0 + 120)],
    ]);

    const tag = await etag();
    await expect(control.rails.approvePrompt(prompt!.id)).rejects.toMatchObject({
      status: 409,
      code: 'INVALID_STATE',
      message: 'cannot approve when status is timed_out',
    });
    // By the owner's id too, as the dashboard's and a test's calls may name it.
    const byOwner = await call(env, 'POST', `/_mock/mobile-money/${txId}/approve`);
    expect(byOwner.status).toBe(409);
    expect(byOwner.body.error.code).toBe('INVALID_STATE');
    await unchangedSince(tag);
    const tx = (await control.dashboard.snapshot()).transactions.find((t) => t.id === txId)!;
    expect(tx.status).toBe('expired');
  });

  it('shows the decline of the test phone that declines, at its time', async () => {
    const number = '+233240000001';
    await deposit(number);
    const t0 = elapsed;
    await advance(5);
    const [prompt] = (await phoneIn(number)).prompts;
    expect(steps(prompt!.history)).toEqual([
      ['created', null, 'pending', at(t0)],
      ['decline', 'pending', 'declined', at(t0 + 5)],
    ]);
  });

  it('refuses every answer to a prompt that has ended, however it ended, over HTTP, changing nothing', async () => {
    const ACTIONS = { approve: 'approve', decline: 'decline', timeout: 'time out' } as const;
    const ended = [];
    for (const [i, end] of (['approve', 'decline', 'timeout'] as const).entries()) {
      const txId = await deposit(`+23320111002${i}`);
      const res = await call(env, 'POST', `/_mock/mobile-money/${txId}/${end}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      ended.push(res.body as { id: string; status: string });
    }
    const tag = await etag();
    for (const prompt of ended) {
      for (const [action, words] of Object.entries(ACTIONS)) {
        const res = await call(env, 'POST', `/_mock/mobile-money/${prompt.id}/${action}`);
        expect(res.status, `${action} a ${prompt.status} prompt`).toBe(409);
        expect(res.body.error).toMatchObject({ code: 'INVALID_STATE', message: `cannot ${words} when status is ${prompt.status}` });
      }
    }
    await unchangedSince(tag);
    expect(ended.map((p) => p.status)).toEqual(['approved', 'declined', 'timed_out']);
  });

  it("shows a sell's payouts in order: the failed attempt and the retry that was paid; failing either afterwards is refused", async () => {
    const { phone, order } = await sellUntilPayout(env, control, advance);

    const [first] = (await phoneIn(phone)).payouts;
    expect(first).toMatchObject({ status: 'pending', owner: order.reference });
    const t1 = Date.parse(first!.sent_at);
    await advance(1);
    await control.rails.failPayout(first!.id, 'wallet full');
    const failedAt = at(elapsed);
    // The order retries with a new attempt, which the rail pays after its payout time.
    await advance(60);

    const payouts = (await phoneIn(phone)).payouts;
    expect(payouts).toHaveLength(2);
    const [retry, failed] = payouts as [Phone['payouts'][number], Phone['payouts'][number]];
    expect(failed).toMatchObject({ id: first!.id, status: 'failed', failure_reason: 'wallet full', settled_at: failedAt });
    expect(steps(failed.history)).toEqual([
      ['created', null, 'pending', new Date(t1).toISOString()],
      ['fail', 'pending', 'failed', failedAt],
    ]);
    expect(retry.status).toBe('succeeded');
    expect(steps(retry.history).map(([event, from, to]) => [event, from, to])).toEqual([
      ['created', null, 'pending'],
      ['succeed', 'pending', 'succeeded'],
    ]);
    const times = retry.history.map((h) => Date.parse(h.at));
    expect(times[0]).toBeGreaterThanOrEqual(Date.parse(failedAt));
    expect(times[1]).toBeGreaterThan(times[0]!);
    expect(retry.settled_at).toBe(retry.history[1]!.at);
    expect((await control.dashboard.snapshot()).ramp_orders.find((o) => o.id === order.id)!.status).toBe('completed');

    const tag = await etag();
    await expect(control.rails.failPayout(retry.id)).rejects.toMatchObject({ status: 409, code: 'INVALID_STATE', message: 'cannot fail when status is succeeded' });
    const again = await call(env, 'POST', `/_mock/payouts/${failed.id}/fail`, { body: { reason: 'twice' } });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'INVALID_STATE', message: 'cannot fail when status is failed' });
    await unchangedSince(tag);
    expect((await phoneIn(phone)).payouts).toEqual(payouts);
  });
});
