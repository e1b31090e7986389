/**
 * The webhooks entries on an edge-like runtime: the verifiers and the signers for tests, each
 * bundled alone and run in a bare V8 context that has only Web standard globals (Web Crypto,
 * TextEncoder, atob), no Buffer, process or require.
 */
import { createHmac, webcrypto } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

/** An entry bundled alone as a script that sets the global `globalName`. */
async function bundleEntry(entry: string, globalName: string) {
  const result = await build({ absWorkingDir: root, entryPoints: [entry], bundle: true, write: false, format: 'iife', globalName, platform: 'neutral', metafile: true, logLevel: 'silent' });
  return { code: result.outputFiles[0]!.text, inputs: Object.keys(result.metafile.inputs) };
}

let bundle: { code: string; inputs: string[] };
let testing: { code: string; inputs: string[] };
beforeAll(async () => {
  bundle = await bundleEntry('src/webhooks/index.ts', 'sikarampWebhooks');
  testing = await bundleEntry('src/webhooks/testing.ts', 'sikarampWebhooksTesting');
});

describe('@sikaramp/sdk/webhooks on an edge runtime', () => {
  it('pulls in neither ky, zod nor @stellar/stellar-sdk, nor any node: module', () => {
    expect(bundle.inputs.length).toBeGreaterThan(0);
    expect(bundle.inputs.filter((i) => /node_modules|^node:/.test(i))).toEqual([]);
    expect(bundle.inputs.sort()).toEqual(['src/core/errors.ts', 'src/webhooks/crypto.ts', 'src/webhooks/events.ts', 'src/webhooks/index.ts', 'src/webhooks/verify.ts']);
    expect(testing.inputs.sort()).toEqual(['src/webhooks/crypto.ts', 'src/webhooks/sign.ts', 'src/webhooks/testing.ts']);
  });

  it('verifies and signs with only Web standard globals', async () => {
    const context = vm.createContext({ crypto: webcrypto, TextEncoder, TextDecoder, atob, btoa });
    vm.runInContext(bundle.code, context);
    vm.runInContext(testing.code, context);
    expect(vm.runInContext('typeof Buffer + typeof process + typeof require + typeof Headers', context)).toBe('undefinedundefinedundefinedundefined');
    const secret = 'whsec_edge';
    const body = JSON.stringify({ event: 'order.completed', order_id: 'ord_1' });
    const timestamp = Math.floor(Date.now() / 1000);
    context.input = { body, secret, headers: { 'x-webhook-signature': createHmac('sha256', secret).update(body).digest('hex'), 'x-webhook-timestamp': String(timestamp) } };
    const event = await vm.runInContext('sikarampWebhooks.verifyWebhook(input)', context);
    expect(event).toMatchObject({ event: 'order.completed', order_id: 'ord_1' });
    // A body as bytes made inside that realm, and a refusal with its reason.
    const refused = await vm.runInContext(
      `sikarampWebhooks.verifyWebhook({ ...input, body: new TextEncoder().encode(input.body + ' ') }).catch((e) => e.reason)`,
      context,
    );
    expect(refused).toBe('no_matching_signature');
    const signed = await vm.runInContext(`sikarampWebhooksTesting.signCheckoutWebhook({ payload: '{"id":"evt_1","type":"payment.failed"}', secret: 's', timestamp: ${timestamp} })`, context);
    expect(signed.headers['X-Svc-Signature']).toBe(`v1=${createHmac('sha256', 's').update(`${timestamp}.{"id":"evt_1","type":"payment.failed"}`).digest('hex')}`);
  });
});
