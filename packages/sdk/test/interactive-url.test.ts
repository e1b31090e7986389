/**
 * An interactive `url` is opened by the merchant's page (iframe, popup, redirect), so an
 * answer whose `url` is `javascript:` or `data:` would run script there. The SDK refuses any
 * scheme but http(s) with ResponseValidationError and returns nothing to open: from the
 * widget backend (a real server on 127.0.0.1 answering as a hostile service would) and from
 * the anchor (SEP-10 against the real mock server, the interactive answer replaced on the way).
 */
import { Keypair } from '@stellar/stellar-sdk';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AnchorClient } from '../src/anchor/index.js';
import { WidgetClient } from '../src/clients/widget.js';
import { ResponseValidationError } from '../src/core/errors.js';
import { envelope, json, startTestServer, type TestServer } from './helpers/http-server.js';
import { startStandalone, type MockEnv } from './helpers/mock.js';

const HOSTILE = [
  'javascript:void(top.document.title="PWNED:"+top.location.origin)//',
  'JavaScript:alert(document.domain)',
  ' javascript:alert(1)',
  'java\tscript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'blob:https://shop.example/1',
  'vbscript:msgbox(1)',
  'file:///etc/passwd',
  '//evil.example/interactive',
  '/interactive?token=abc',
  '',
];
const SECRET_KEY = `sika_secret_${'ab'.repeat(24)}`;
const PUBLIC_KEY = `sika_public_${'cd'.repeat(24)}`;
const USER = 'cus_1';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('the widget backend answers an interactive url that is not http(s)', () => {
  it.each(HOSTILE)('deposit and withdraw refuse %j with ResponseValidationError', async (url) => {
    server = await startTestServer((_req, res) => json(res, 200, envelope({ url, id: 'tx_1', type: 'interactive_customer_info_needed' })));
    const widget = new WidgetClient({ baseUrl: server.url, secretKey: SECRET_KEY, publicKey: PUBLIC_KEY });
    for (const call of [() => widget.interactive.deposit({ user_id: USER }), () => widget.interactive.withdraw({ user_id: USER })]) {
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ResponseValidationError);
      expect((error as ResponseValidationError).issues[0]!.path).toEqual(['url']);
    }
  });

  it('accepts https, and http as the mock server on 127.0.0.1 serves it', async () => {
    for (const url of ['https://pay.sikaramp.example/interactive?token=abc', 'http://127.0.0.1:4010/interactive?token=abc']) {
      server = await startTestServer((_req, res) => json(res, 200, envelope({ url, id: 'tx_1', type: 'interactive_customer_info_needed' })));
      const widget = new WidgetClient({ baseUrl: server.url, secretKey: SECRET_KEY, publicKey: PUBLIC_KEY });
      expect((await widget.interactive.deposit({ user_id: USER })).url).toBe(url);
      await server.close();
      server = undefined;
    }
  });

  it('refuses any url whose scheme is not http or https (property)', async () => {
    let url = '';
    server = await startTestServer((_req, res) => json(res, 200, envelope({ url, id: 'tx_1', type: 'interactive_customer_info_needed' })));
    const widget = new WidgetClient({ baseUrl: server.url, secretKey: SECRET_KEY, publicKey: PUBLIC_KEY });
    const scheme = fc.stringMatching(/^[a-z][a-z0-9+.-]{0,10}$/).filter((s) => s !== 'http' && s !== 'https');
    await fc.assert(
      fc.asyncProperty(scheme, fc.string({ maxLength: 40 }), async (s, rest) => {
        url = `${s}:${rest}`;
        const error = await widget.interactive.deposit({ user_id: USER }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ResponseValidationError);
      }),
      { numRuns: 100 },
    );
  });
});

describe('the anchor answers a SEP-24 interactive url that is not http(s)', () => {
  let env: MockEnv;
  beforeAll(async () => {
    env = await startStandalone({ seed: 3 });
  });
  afterAll(() => env.close());

  it.each(HOSTILE.slice(0, 5))('deposit and withdraw refuse %j after a real SEP-10 sign-in', async (url) => {
    const interactiveCalls: string[] = [];
    const anchor = new AnchorClient({
      anchorUrl: env.backend.urls.anchor,
      signer: Keypair.random(),
      now: () => env.backend.clock.now(),
      // The mock signs the account in; the interactive answer is what a hostile service would send.
      fetch: async (input, init) => {
        const request = new Request(input, init);
        if (!/\/transactions\/(deposit|withdraw)\/interactive$/.test(new URL(request.url).pathname)) return fetch(request);
        interactiveCalls.push(new URL(request.url).pathname);
        return Response.json({ type: 'interactive_customer_info_needed', url, id: 'tx_1' });
      },
    });
    for (const call of [() => anchor.transfers.deposit({ amount: 100 }), () => anchor.transfers.withdraw({ amount: 5 })]) {
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ResponseValidationError);
    }
    expect(interactiveCalls).toHaveLength(2);
  });
});
