/**
 * nextRoutes, as Next.js uses it: route modules are loaded by `next build` without secrets, so
 * the handlers must be made on the first request, once. The real framework runs the example's
 * routes in examples/next-handlers/test/shop.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { nextRoutes } from '../src/handlers/adapters/next.js';
import { createWebhookHandler, MemoryDedupeStore } from '../src/handlers/index.js';

describe('nextRoutes', () => {
  it('makes the handlers on the first request, not when the routes are taken, and only once', async () => {
    const env: Record<string, string | undefined> = {};
    let made = 0;
    const route = nextRoutes(() => {
      made++;
      return { webhook: createWebhookHandler({ secret: env.SECRET, store: new MemoryDedupeStore(), onEvent: () => {} }) };
    });
    // What a route module does while `next build` loads it, with no secret set.
    const POST = route('webhook');
    expect(made).toBe(0);

    // A request before the secret is set fails (Next.js answers 500 and logs it); the next one tries again.
    await expect(POST(new Request('http://shop.example/webhooks', { method: 'POST', body: '{}' }))).rejects.toThrow(/secret/);
    env.SECRET = 'whsec_next';
    expect((await POST(new Request('http://shop.example/webhooks', { method: 'POST', body: '{}' }))).status).toBe(400);
    expect((await route('webhook')(new Request('http://shop.example/webhooks'))).status).toBe(405);
    expect(made).toBe(2);
  });
});
