/**
 * `<ramp-widget>` under attack, in Chromium: what a merchant backend, the config answer, another
 * window of the service's origin or the framed page itself hands the widget must not run code in
 * the merchant's page, send a key that is not public, or reach a server it should not.
 */
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { eventually, type ShopPage, stellarAccountId, useWorld, type World } from './helpers/world.js';

let world: World;
useWorld((w) => (world = w));

const types = (events: { type: string }[]) => events.map((e) => e.type);
const statuses = (events: { type: string; detail: any }[]) =>
  events.filter((e) => e.type === 'ramp-status').map((e) => e.detail.transaction.status);
const widget = (shop: ShopPage) => shop.page.locator('ramp-widget').first();
const hex = (bytes: number) => randomBytes(bytes).toString('hex');

async function openedId(shop: ShopPage): Promise<string> {
  await eventually(() => types(shop.events)).toContain('ramp-open');
  return shop.events.find((e) => e.type === 'ramp-open')!.detail.id;
}

/** Every message the shop's window receives, recorded by the page itself after the widget's listener. */
async function recordMessages(page: Page) {
  await page.evaluate(() => {
    (window as any).seen = [];
    addEventListener('message', (e) => (window as any).seen.push(e.data));
  });
  return () => page.evaluate(() => (window as any).seen as any[]);
}

describe('<ramp-widget> interactive URL', () => {
  /** Each would run script in the shop's page, carry a "null" origin anyone shares, or leave the web. */
  const hostileUrls = () => [
    'javascript:void((opener||top).document.title="PWNED:"+(opener||top).location.origin)//',
    ' javascript:void((opener||top).document.title="PWNED")//',
    'java\tscript:void((opener||top).document.title="PWNED")//',
    'JavaScript:void((opener||top).document.title="PWNED")//',
    'data:text/html,<script>(opener||parent).postMessage({transaction:{id:"evil-tx",status:"completed"}},"*")</script>',
    `blob:${world.shop}/5b1c3f52-0d6e-4c8e-9d3a-2f1e7a9b0c11`,
    '/interactive?token=relative',
    '//evil.example/interactive',
    'http://evil.example/interactive',
    'http://localhost:80@evil.example/interactive',
    'http://127.0.0.1.evil.example/interactive',
    'http://[::ffff:7f00:1]:4010/interactive',
    `ws://127.0.0.1:${new URL(world.stranger).port}/`,
    'ftp://127.0.0.1/interactive',
    'file:///etc/passwd',
    'about:blank',
  ];

  it.each(['iframe', 'popup', 'redirect'])('opens no hostile URL in %s mode: a session_failed error for each, and nothing opened or run', async (mode) => {
    const shop = await world.open({ flow: 'buy', mode, amount: '50', destination: stellarAccountId() });
    await eventually(() => types(shop.events)).toContain('ramp-ready');
    const shopUrl = shop.page.url();
    const urls = hostileUrls();
    for (const url of urls) {
      const before = shop.events.length;
      await widget(shop).evaluate((el: any, u) => (el.sessionUrl = `/evil-session?url=${encodeURIComponent(u)}`), url);
      await widget(shop).locator('[part=button]').click();
      await eventually(() => shop.events.length).toBeGreaterThan(before);
      expect(shop.events[before], url).toMatchObject({ type: 'ramp-error', detail: { code: 'session_failed' } });
    }
    expect(types(shop.events).filter((t) => t !== 'ramp-ready')).toEqual(urls.map(() => 'ramp-error'));
    // Each blank popup opened in the click was closed again; nothing ran in, or navigated, the shop's page.
    await eventually(() => shop.page.context().pages().length).toBe(1);
    expect(await shop.page.title()).toBe('Kofi Shop');
    expect(shop.page.url()).toBe(shopUrl);
    expect(await widget(shop).locator('iframe').count()).toBe(0);
    expect(shop.requests.filter((u) => !u.startsWith(world.shop) && !u.startsWith(world.mock.url))).toEqual([]);
    await shop.page.context().close();
  });

  it('opens an https URL, and http only on this machine (the mock)', async () => {
    const shop = await world.open({ flow: 'buy', mode: 'iframe', amount: '50', destination: stellarAccountId() });
    await eventually(() => types(shop.events)).toContain('ramp-ready');
    for (const url of ['https://interactive.example/pay?token=t', 'http://localhost:9/pay', 'http://127.0.0.1:9/pay']) {
      const before = shop.events.length;
      await widget(shop).evaluate((el: any, u) => (el.sessionUrl = `/evil-session?url=${encodeURIComponent(u)}`), url);
      await widget(shop).locator('[part=button]').click();
      await eventually(() => shop.events.length).toBeGreaterThan(before);
      expect(shop.events[before]).toMatchObject({ type: 'ramp-open', detail: { id: 'evil-tx', mode: 'iframe' } });
      const src = new URL((await widget(shop).locator('iframe').getAttribute('src'))!);
      expect(src.origin + src.pathname).toBe(new URL(url).origin + new URL(url).pathname);
      await widget(shop).locator('[part=close]').click();
      await eventually(() => widget(shop).locator('dialog').count()).toBe(0);
    }
    await shop.page.context().close();
  });
});

describe('<ramp-widget> messages', () => {
  it.each(['iframe', 'popup'])('ignores another window of the interactive origin claiming the open transaction completed (%s)', async (mode) => {
    const shop = await world.open({ flow: 'sell', mode, amount: '20' });
    await eventually(() => types(shop.events)).toContain('ramp-ready');
    const popupOpened = mode === 'popup' ? shop.page.waitForEvent('popup') : undefined;
    await widget(shop).locator('[part=button]').click();
    const id = await openedId(shop);
    await popupOpened;
    await eventually(() => statuses(shop.events)).toEqual(['incomplete']);
    const seen = await recordMessages(shop.page);

    // Any page can frame a page of the service's origin: here, another transaction's interactive page.
    const res = await fetch(`${world.shop}/session`, { method: 'POST', body: JSON.stringify({ flow: 'sell', asset: 'USDC', amount: 20 }) });
    const other = (await res.json()) as { url: string; id: string };
    const otherUrl = `${other.url}&origin=${encodeURIComponent(world.shop)}`;
    await shop.page.evaluate((src) => document.body.append(Object.assign(document.createElement('iframe'), { src })), otherUrl);
    await eventually(() => shop.page.frames().some((f) => f.url() === otherUrl)).toBe(true);
    const impostor = shop.page.frames().find((f) => f.url() === otherUrl)!;
    // Script in that window (an injection there, or a tab of the service's origin) speaks for the open transaction.
    await impostor.evaluate(
      ({ txId, origin }) => {
        parent.postMessage({ transaction: { id: txId, status: 'completed' } }, origin);
        parent.postMessage({ type: 'sikaramp:close', transaction_id: txId }, origin);
      },
      { txId: id, origin: world.shop },
    );
    await eventually(async () => (await seen()).some((m) => m?.transaction_id === id)).toBe(true);
    expect((await seen()).some((m) => m?.transaction?.id === id && m.transaction.status === 'completed')).toBe(true);
    expect(types(shop.events)).toEqual(['ramp-ready', 'ramp-open', 'ramp-status']);
    if (mode === 'iframe') expect(await shop.page.getByRole('dialog').isVisible()).toBe(true);
    else expect(shop.page.context().pages()).toHaveLength(2);

    // The widget's own window is still heard.
    await world.control('POST', `/transactions/${id}/complete-interactive`, { provider: 'mtn', phone: '+233241234567' });
    await eventually(() => statuses(shop.events)).toEqual(['incomplete', 'pending_user_transfer_start']);
    await shop.page.context().close();
  });
});

describe('<ramp-widget> theme from the config answer', () => {
  it('applies only a hex colour and a CSS length: no url() in a hostile config is ever fetched', async () => {
    const nonce = hex(4);
    const beacon = (n: number) => `${world.hostile}/beacon/${nonce}/${n}`;
    const DEFAULT = { background: 'rgb(15, 118, 110)', radius: '12px' };
    const cases: { theme: Record<string, unknown>; expected: { background: string; radius: string } }[] = [
      { theme: { primary_color: `url(${beacon(1)})`, border_radius: `url(${beacon(2)})` }, expected: DEFAULT },
      { theme: { primary_color: `#fff url(${beacon(3)})`, border_radius: '3px' }, expected: { ...DEFAULT, radius: '3px' } },
      { theme: { primary_color: `linear-gradient(red,red),url(${beacon(4)})`, border_radius: '3px' }, expected: { ...DEFAULT, radius: '3px' } },
      { theme: { primary_color: `image-set("${beacon(5)}" 1x)`, border_radius: '0' }, expected: { ...DEFAULT, radius: '0px' } },
      { theme: { primary_color: `-webkit-image-set(url(${beacon(6)}) 1x)`, border_radius: '1.5rem' }, expected: { ...DEFAULT, radius: '24px' } },
      { theme: { primary_color: `#7c3aed;background-image:url(${beacon(7)})`, border_radius: `3px;background:url(${beacon(8)})` }, expected: DEFAULT },
      { theme: { primary_color: `#7c3aed url(${beacon(9)})`, border_radius: `3px url(${beacon(10)})` }, expected: DEFAULT },
      { theme: { primary_color: 'var(--x)', border_radius: 'calc(1px + 2px)' }, expected: DEFAULT },
      { theme: { primary_color: '#12345', border_radius: '3px 3px' }, expected: DEFAULT },
      { theme: { primary_color: ' #7c3aed', border_radius: '3px ' }, expected: DEFAULT },
      { theme: { primary_color: '#7c3aed\n', border_radius: '-3px' }, expected: DEFAULT },
      { theme: { primary_color: 7, border_radius: null }, expected: DEFAULT },
      { theme: {}, expected: DEFAULT },
      // The forms a merchant sets are applied.
      { theme: { primary_color: '#7C3AED', border_radius: '0.5rem' }, expected: { background: 'rgb(124, 58, 237)', radius: '8px' } },
      { theme: { primary_color: '#abc', border_radius: '50%' }, expected: { background: 'rgb(170, 187, 204)', radius: '50%' } },
    ];
    const shop = await world.open({ 'data-api-key': null });
    await eventually(() => types(shop.events)).toEqual(['ramp-ready']);
    await shop.page.evaluate(
      ({ themes, hostile, key }) => {
        themes.forEach((theme, i) => {
          const el = document.createElement('ramp-widget');
          el.id = `w${i}`;
          el.setAttribute('data-api-key', key);
          el.setAttribute('api-base', `${hostile}/theme/${theme}`);
          document.body.append(el);
        });
      },
      {
        themes: cases.map((c) => Buffer.from(JSON.stringify(c.theme)).toString('base64url')),
        hostile: world.hostile,
        key: `sika_public_${hex(24)}`,
      },
    );
    await eventually(() => types(shop.events).filter((t) => t === 'ramp-ready')).toHaveLength(cases.length + 1);
    expect(types(shop.events)).not.toContain('ramp-error');
    const styles = await shop.page.evaluate((n) =>
      Array.from({ length: n }, (_, i) => {
        const s = getComputedStyle(document.getElementById(`w${i}`)!.shadowRoot!.querySelector('[part=button]')!);
        return { background: s.backgroundColor, radius: s.borderTopLeftRadius };
      }),
    cases.length);
    expect(styles).toEqual(cases.map((c) => c.expected));

    // A background image set after the widgets' styles is fetched; once it has arrived and the
    // network is idle, any url() the widgets applied would have been requested too.
    await shop.page.evaluate((url) => (document.body.style.backgroundImage = `url(${url})`), `${world.hostile}/control/${nonce}`);
    await eventually(() => world.beacons).toContain(`/control/${nonce}`);
    await shop.page.waitForLoadState('networkidle');
    expect(world.beacons.filter((path) => path.includes(nonce))).toEqual([`/control/${nonce}`]);
    expect(shop.requests.filter((url) => url.includes('/beacon/'))).toEqual([]);
    await shop.page.context().close();
  });
});

describe('<ramp-widget> keys', () => {
  it('sends nothing with a key that is not of the public form, and starts nothing', async () => {
    const keys = [
      world.secretKey,
      `sika_secret_${hex(24)}`,
      `xx_secret_${hex(24)}`,
      `sika_checkout_${hex(24)}`,
      `whsec_${randomBytes(24).toString('base64')}`,
      `S${'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'.repeat(2)}ABCDEFG`,
      'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJtZXJjaGFudCJ9.c2lnbmF0dXJl',
      `Bearer ${world.publicKey}`,
      `${world.publicKey} `,
      `${world.publicKey}\n`,
      `${world.publicKey}_secret_${hex(4)}`,
      `${world.publicKey}&x=1`,
      `sika_secret_public_${hex(24)}`,
      'sika_public_',
      `sika_public_${hex(24)}z`,
    ];
    const shop = await world.open({ 'data-api-key': null, 'api-base': null });
    await eventually(() => types(shop.events)).toEqual(['ramp-ready']);
    const sessions = world.sessionRequests.length;
    await shop.page.evaluate(
      ({ keys, apiBase }) => {
        keys.forEach((key, i) => {
          const el = document.createElement('ramp-widget');
          el.id = `k${i}`;
          el.setAttribute('data-api-key', key);
          el.setAttribute('api-base', apiBase);
          el.setAttribute('session-url', '/session');
          document.body.append(el);
        });
      },
      { keys, apiBase: world.mock.url },
    );
    await eventually(() => shop.events.length).toBe(keys.length + 1);
    const errors = shop.events.slice(1);
    expect(errors.map((e) => e.detail.code)).toEqual(keys.map(() => 'secret_key'));
    for (const [i, key] of keys.entries()) expect(errors[i]!.detail.message).not.toContain(key.trim());
    // Each button is disabled, and open() does nothing.
    const state = await shop.page.evaluate((n) => {
      const els = Array.from({ length: n }, (_, i) => document.getElementById(`k${i}`) as any);
      for (const el of els) el.open();
      return els.map((el) => el.shadowRoot.querySelector('[part=button]').disabled);
    }, keys.length);
    expect(state).toEqual(keys.map(() => true));
    await shop.page.waitForLoadState('networkidle');
    expect(shop.requests.filter((url) => !url.startsWith(world.shop))).toEqual([]);
    expect(world.sessionRequests.length).toBe(sessions);
    await shop.page.context().close();
  });
});

describe('<ramp-widget> iframe sandbox', () => {
  it('lets the customer complete a buy through the framed form: scripts, its origin and forms are allowed', async () => {
    const shop = await world.open({ flow: 'buy', mode: 'iframe', amount: '100', destination: stellarAccountId() });
    await eventually(() => types(shop.events)).toContain('ramp-ready');
    await widget(shop).locator('[part=button]').click();
    const id = await openedId(shop);
    const iframe = widget(shop).locator('iframe');
    expect(await iframe.getAttribute('sandbox')).toBe('allow-scripts allow-same-origin allow-forms');
    expect(await shop.page.getByRole('dialog', { name: 'Buy USDC' }).evaluate((el) => el.matches(':modal'))).toBe(true);
    await eventually(() => statuses(shop.events)).toEqual(['incomplete']);

    const frame = iframe.contentFrame();
    await frame.getByLabel('MTN MoMo').check();
    await frame.getByLabel('Mobile Money number').fill('024 123 4567');
    await frame.getByRole('button', { name: 'Send code' }).click();
    const code = frame.getByLabel('Verification code');
    await code.waitFor({ state: 'visible', timeout: 30_000 });
    const otp = await world.control('GET', `/otp?phone=${encodeURIComponent('+233241234567')}`);
    await code.fill(otp.code);
    // The fee breakdown is on screen before the customer confirms it.
    await eventually(() => frame.locator('#sum-out').textContent()).toMatch(/USDC$/);
    await frame.getByRole('button', { name: 'Confirm and pay' }).click();
    await eventually(() => statuses(shop.events)).toEqual(['incomplete', 'pending_user_transfer_start']);

    await world.control('POST', `/mobile-money/${id}/approve`);
    await world.control('POST', '/clock/advance', { seconds: 120 });
    await eventually(() => types(shop.events)).toContain('ramp-complete');
    expect(statuses(shop.events).at(-1)).toBe('completed');
    await shop.page.context().close();
  });

  it('keeps the framed page from navigating the shop, opening windows or dialogs, even on a click', async () => {
    const shop = await world.open({ flow: 'sell', mode: 'iframe', amount: '20' });
    await eventually(() => types(shop.events)).toContain('ramp-ready');
    await widget(shop).locator('[part=button]').click();
    await openedId(shop);
    await eventually(() => statuses(shop.events)).toEqual(['incomplete']);
    const shopUrl = shop.page.url();
    const dialogs: string[] = [];
    shop.page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });

    // Script in the framed page (an injection there, or a compromised third party it loads) acts
    // on a real click of the customer, which is what browsers let a cross-origin frame do.
    const frame = widget(shop).locator('iframe').contentFrame();
    await frame.locator('body').evaluate((body, target) => {
      const attack = (label: string, act: () => unknown) => {
        const button = Object.assign(document.createElement('button'), { type: 'button', textContent: label });
        button.addEventListener('click', () => {
          try {
            act();
          } catch {}
          (window as any).done = [...((window as any).done ?? []), label];
        });
        body.prepend(button);
      };
      attack('Navigate the shop', () => (top!.location.href = `${target}/phishing`));
      attack('Open a window', () => open(`${target}/popup`));
      attack('Show a dialog', () => alert('Your session expired: enter your password'));
    }, world.stranger);
    for (const label of ['Navigate the shop', 'Open a window', 'Show a dialog']) {
      await frame.getByRole('button', { name: label }).click();
      await eventually(() => frame.locator('body').evaluate(() => (window as any).done)).toContain(label);
    }
    await shop.page.waitForLoadState('networkidle');
    expect(shop.page.url()).toBe(shopUrl);
    expect(shop.page.context().pages()).toHaveLength(1);
    expect(dialogs).toEqual([]);
    expect(shop.requests.filter((url) => url.startsWith(world.stranger))).toEqual([]);
    await shop.page.context().close();
  });
});

describe('<ramp-widget> popup', () => {
  it("opens a window of its own, never one a third party's frame on the page prepared under the popup's name", async () => {
    const shop = await world.open({ flow: 'sell', mode: 'popup', amount: '20' });
    await eventually(() => types(shop.events)).toContain('ramp-ready');
    // A third party's frame on the shop's page (an ad, a chat box), cross-origin: on a click of
    // the customer it opens a window named as the widget named its popup, and keeps a handle on it.
    const src = `${world.stranger}/ad`;
    await shop.page.evaluate((s) => document.body.append(Object.assign(document.createElement('iframe'), { src: s })), src);
    await eventually(() => shop.page.frames().some((f) => f.url() === src)).toBe(true);
    const frame = shop.page.frames().find((f) => f.url() === src)!;
    await frame.evaluate((url) => {
      const button = Object.assign(document.createElement('button'), { textContent: 'Win a prize' });
      button.addEventListener('click', () => ((window as any).trap = open(url, 'ramp-widget')));
      document.body.append(button);
    }, `${world.stranger}/waiting`);
    const trapOpened = shop.page.context().waitForEvent('page');
    await frame.getByRole('button', { name: 'Win a prize' }).click();
    const trap = await trapOpened;
    await trap.waitForLoadState();

    await widget(shop).locator('[part=button]').click();
    await openedId(shop);
    // The widget's popup is a new window, whose opener is the shop: its statuses reach the shop.
    await eventually(() => shop.page.context().pages().length).toBe(3);
    await eventually(() => statuses(shop.events)).toEqual(['incomplete']);
    expect(trap.url()).toBe(`${world.stranger}/waiting`);
    await shop.page.context().close();
  });
});

describe('<ramp-widget> way back from a redirect', () => {
  it('reports no status a third party wrote in the URL without the transaction id, and follows the real one', async () => {
    const shop = await world.open({ flow: 'buy', mode: 'redirect', amount: '120', destination: stellarAccountId(), 'status-url': '/status' });
    await eventually(() => types(shop.events)).toContain('ramp-ready');
    const back = shop.page.url();
    await widget(shop).locator('[part=button]').click();
    await shop.page.waitForURL((url) => url.origin === new URL(world.mock.url).origin);
    const id = shop.events.find((e) => e.type === 'ramp-open')!.detail.id as string;

    // Whatever holds this tab (the site that opened the shop, say) sends it back with a status:
    // it cannot know the transaction's id.
    await shop.page.goto(`${back}&status=completed`);
    await eventually(() => statuses(shop.events).length).toBeGreaterThan(0);
    // The status is the service's, from status-url.
    expect(statuses(shop.events)).toEqual(['incomplete']);
    await world.control('POST', `/transactions/${id}/complete-interactive`, { provider: 'mtn', phone: '+233241234567' });
    await eventually(() => statuses(shop.events)).toEqual(['incomplete', 'pending_user_transfer_start']);
    expect(types(shop.events).filter((t) => t !== 'ramp-ready')).toEqual(['ramp-open', 'ramp-status', 'ramp-status']);
    await shop.page.context().close();
  });
});

describe('<ramp-widget> poll-interval', () => {
  it.each(['abc', '0', '-1', '1', '2147483648'])('polls status-url at a pause of 0.5 s at least when poll-interval is %s', async (interval) => {
    const shop = await world.open({ flow: 'buy', mode: 'iframe', amount: '50', destination: stellarAccountId(), 'status-url': '/status', 'poll-interval': interval });
    await widget(shop).locator('[part=button]').click();
    await openedId(shop);
    // Closed while the transaction goes on: from now on its status comes from polling status-url.
    await widget(shop).evaluate((el: any) => el.close());
    await shop.page.waitForTimeout(1_600);
    const polls = shop.requests.filter((u) => new URL(u).pathname === '/status').length;
    // A pause of 0.5 s allows 3 polls in 1.6 s (the default, 5 s, none); without a floor it was hundreds.
    expect(polls).toBeLessThanOrEqual(interval === '1' || interval === '-1' ? 4 : 0);
    await shop.page.context().close();
  });
});
