/**
 * The mock in a browser, as the testing guide shows it: a page bundles `@sikaramp/mock-server`
 * (its `browser` export, without the node server) with msw's `setupWorker`, and calls the widget
 * backend, in headless Chromium (Debian's package, driven by playwright-core). The page and
 * msw's service worker script are served on 127.0.0.1; the service's own origin is never reached.
 */
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchChromium } from '../../../test/chromium.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
let server: Server;
let origin: string;
let browser: Browser;

beforeAll(async () => {
  // As a merchant's bundler would: the package's `browser` condition, for the browser platform.
  const bundle = await build({
    entryPoints: [`${here}browser/app.ts`],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  const app = bundle.outputFiles[0]!.text;
  // msw's worker script, from the msw this example uses (`npx msw init public/` copies the same file).
  const workerScript = readFileSync(createRequire(import.meta.url).resolve('msw/mockServiceWorker.js'));
  const files: Record<string, [string, string | Buffer]> = {
    '/': ['text/html', '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head><body><script type="module" src="/app.js"></script></body></html>'],
    '/app.js': ['text/javascript', app],
    '/mockServiceWorker.js': ['text/javascript', workerScript],
    '/favicon.ico': ['image/x-icon', ''],
  };
  server = createServer((req, res) => {
    const file = files[new URL(req.url ?? '/', 'http://127.0.0.1').pathname];
    if (!file) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': file[0] }).end(file[1]);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

it('runs the service in a service worker and answers the widget backend from it', { timeout: 60_000 }, async () => {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  // Anything leaving the browser for the service's origin would mean the worker did not answer.
  const network: string[] = [];
  page.on('request', (request) => void (request.url().startsWith('https://mock.sikaramp.test') && network.push(request.url())));
  await page.goto(`${origin}/`);
  await page.waitForFunction(() => 'result' in window, undefined, { timeout: 30_000 });
  const result: any = await page.evaluate(() => (window as any).result);

  expect(errors).toEqual([]);
  expect(result.status).toBe(200);
  expect(result.config.data).toMatchObject({ merchant_id: result.merchantId });
  expect(result.customer).toEqual({ id: expect.any(String), status: 'ACCEPTED' });
  // The worker answered: the browser's own network stack saw the requests, served from the worker.
  expect(network.length).toBeGreaterThan(0);
  expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(`${origin}/mockServiceWorker.js`);
  await page.close();
});
