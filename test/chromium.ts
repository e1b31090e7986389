/**
 * Headless Chromium for the browser tests of every package (mock-server, widget, examples):
 * Debian's package, or CHROMIUM_PATH, driven by playwright-core; no network of its own beyond
 * what a test opens, so that nothing reaches past 127.0.0.1.
 */
import { chromium, type Browser, type LaunchOptions } from 'playwright-core';

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** `args` are added to the common ones; any other option replaces its default. */
export function launchChromium({ args = [], ...options }: LaunchOptions = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    // Fails with Playwright's own message, well inside the hooks' time limits.
    timeout: 20_000,
    ...options,
    args: [...ARGS, ...args],
  });
}
