/**
 * A client holding a secret refuses to start where `window` or `document` exists, and
 * `dangerouslyAllowBrowser: true` lets a merchant's backend tests under jsdom (which defines
 * both) create it and call the standalone mock for real.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CheckoutClient, CredentialError, RampClient, WidgetClient } from '../src/index.js';
import { newCheckout, payment } from './helpers/checkout.js';
import { customerInput, newWidget } from './helpers/clients.js';
import { startStandalone, type MockEnv } from './helpers/mock.js';

let env: MockEnv;
beforeAll(async () => {
  env = await startStandalone();
});
afterAll(() => env.close());

/** What jsdom's test environment puts on the global object. */
function pretendJsdom(): void {
  const g = globalThis as { window?: unknown; document?: unknown };
  g.window = globalThis;
  g.document = { nodeType: 9, defaultView: globalThis };
}
/** What a browser's Web Worker has, and Node, Deno, Bun and edge runtimes lack: no window, no document, but importScripts. */
function pretendWebWorker(): void {
  (globalThis as { importScripts?: unknown }).importScripts = () => {};
}
afterEach(() => {
  const g = globalThis as { window?: unknown; document?: unknown; importScripts?: unknown };
  delete g.window;
  delete g.document;
  delete g.importScripts;
});

describe('secret credentials in a browser-like environment', () => {
  it('are refused by every client that holds one, naming the opt-out and never the key', async () => {
    const { secretKey } = await newWidget(env);
    const { key } = await newCheckout(env);
    pretendJsdom();
    const attempts = [
      () => new WidgetClient({ baseUrl: env.origin, secretKey }),
      () => new RampClient({ baseUrl: env.origin, secretKey }),
      () => new CheckoutClient({ baseUrl: env.origin, apiKey: key }),
    ];
    for (const attempt of attempts) {
      const error = (() => {
        try {
          attempt();
        } catch (e) {
          return e as Error;
        }
      })();
      expect(error).toBeInstanceOf(CredentialError);
      expect(error!.message).toContain('dangerouslyAllowBrowser: true');
      expect(error!.message).not.toContain(secretKey);
      expect(error!.message).not.toContain(key);
    }
    // A checkout client without a key (verify only) holds no secret and is allowed.
    expect(() => new CheckoutClient({ baseUrl: env.origin })).not.toThrow();
  });

  it('are allowed with dangerouslyAllowBrowser: true, and the clients then work against the mock', async () => {
    const { secretKey } = await newWidget(env);
    const checkoutKey = (await newCheckout(env)).key;
    pretendJsdom();
    const widget = new WidgetClient({ baseUrl: env.origin, secretKey, dangerouslyAllowBrowser: true });
    const created = await widget.customers.create(customerInput());
    await expect(widget.customers.get(created.id)).resolves.toMatchObject({ id: created.id, status: 'ACCEPTED' });
    const checkout = new CheckoutClient({ baseUrl: env.origin, apiKey: checkoutKey, dangerouslyAllowBrowser: true });
    await expect(checkout.payments.create(payment())).resolves.toMatchObject({ outcome: 'created', status: 201 });
    expect(() => new RampClient({ baseUrl: env.origin, secretKey, dangerouslyAllowBrowser: true })).not.toThrow();
  });

  it('are refused in a Web Worker too, whose code the page ships to every visitor as well', async () => {
    const { secretKey } = await newWidget(env);
    const { key } = await newCheckout(env);
    pretendWebWorker();
    expect(() => new WidgetClient({ baseUrl: env.origin, secretKey })).toThrow(CredentialError);
    expect(() => new RampClient({ baseUrl: env.origin, secretKey })).toThrow(CredentialError);
    expect(() => new CheckoutClient({ baseUrl: env.origin, apiKey: key })).toThrow(CredentialError);
    expect(() => new WidgetClient({ baseUrl: env.origin, secretKey, dangerouslyAllowBrowser: true })).not.toThrow();
  });

  it('only true opts out: a truthy string does not', async () => {
    const { secretKey } = await newWidget(env);
    pretendJsdom();
    expect(() => new WidgetClient({ baseUrl: env.origin, secretKey, dangerouslyAllowBrowser: 'yes' as unknown as boolean })).toThrow(CredentialError);
  });
});
