import { describe, expect, it } from 'vitest';
import { eventually, type ShopPage, stellarAccountId, useWorld, type World } from './helpers/world.js';

let world: World;
useWorld((w) => (world = w));

/** Polls until the assertion holds; generous, since the machine is shared with other test runs. */
const types = (events: { type: string }[]) => events.map((e) => e.type);
const statuses = (events: { type: string; detail: any }[]) =>
  events.filter((e) => e.type === 'ramp-status').map((e) => e.detail.transaction.status);
const widget = (shop: ShopPage) => shop.page.locator('ramp-widget');

/** The transaction id the widget opened, from its ramp-open event. */
async function openedId(shop: ShopPage): Promise<string> {
  await eventually(() => types(shop.events)).toContain('ramp-open');
  return shop.events.find((e) => e.type === 'ramp-open')!.detail.id;
}

describe('<ramp-widget> in Chromium', () => {
  it('applies the theme from the widget config, and lets the page override it', async () => {
    const { page, events } = await world.open();
    await eventually(() => types(events)).toContain('ramp-ready');
    const ready = events.find((e) => e.type === 'ramp-ready')!;
    expect(ready.detail.config.theme).toEqual({ primary_color: '#7c3aed', border_radius: '3px' });
    expect(ready).toMatchObject({ bubbles: true, composed: true });
    const style = () =>
      page.locator('ramp-widget').evaluate((el) => {
        const button = el.shadowRoot!.querySelector('[part=button]')!;
        const s = getComputedStyle(button);
        return { background: s.backgroundColor, radius: s.borderTopLeftRadius };
      });
    expect(await style()).toEqual({ background: 'rgb(124, 58, 237)', radius: '3px' });
    await page.addStyleTag({ content: 'ramp-widget { --ramp-primary-color: #ff0000 } ramp-widget::part(button) { border-radius: 20px }' });
    expect(await style()).toEqual({ background: 'rgb(255, 0, 0)', radius: '20px' });
    await page.context().close();
  });

  it('refuses a secret key: a visible error, an error event, and no request at all', async () => {
    const { page, events, requests } = await world.open({ 'data-api-key': world.secretKey });
    await eventually(() => types(events)).toEqual(['ramp-error']);
    expect(events[0]!.detail).toMatchObject({ code: 'secret_key' });
    expect(events[0]!.detail.message).not.toContain(world.secretKey);
    const alert = page.getByRole('alert');
    await eventually(() => alert.textContent()).toContain('Not a public key');
    const button = page.locator('ramp-widget').locator('[part=button]');
    expect(await button.isDisabled()).toBe(true);
    const code = await page.locator('ramp-widget').evaluate((el: any) => el.open().catch((e: any) => e.code));
    expect(code).toBe('secret_key');
    // Nothing left the shop's own origin (no config request), and the shop's backend was not asked.
    expect(requests.filter((url) => !url.startsWith(world.shop))).toEqual([]);
    expect(world.sessionRequests).toHaveLength(0);
    await page.context().close();
  });

  it('completes a buy in the modal iframe, reporting each status until completion', async () => {
    const destination = stellarAccountId();
    // A tag the service takes only once lower-cased: the widget sends it in the form it accepts.
    const shop = await world.open({ flow: 'buy', mode: 'iframe', amount: '150', destination }, { lang: 'FR-gh' });
    await eventually(() => types(shop.events)).toContain('ramp-ready');
    const trigger = widget(shop).locator('[part=button]');
    await trigger.click();
    const id = await openedId(shop);

    // The merchant backend was asked with what the page passed; the key stayed on the server.
    expect(world.sessionRequests.at(-1)).toEqual({ flow: 'buy', amount: 150, asset: 'USDC', destination, lang: 'fr-gh' });
    // The widget speaks the page's language too.
    const dialog = shop.page.getByRole('dialog', { name: 'Acheter des USDC' });
    await eventually(() => dialog.isVisible()).toBe(true);
    expect(await dialog.evaluate((el) => el.matches(':modal'))).toBe(true);
    const frame = widget(shop).locator('iframe');
    expect(await frame.getAttribute('title')).toBe('Acheter des USDC');
    expect(await frame.getAttribute('allow')).toBe('camera; microphone; payment; clipboard-write; accelerometer; gyroscope; fullscreen');
    const src = new URL((await frame.getAttribute('src'))!);
    expect(src.origin).toBe(new URL(world.mock.url).origin);
    expect(src.searchParams.get('origin')).toBe(world.shop);
    // The page's language went through the merchant backend into the transaction, not onto the URL.
    expect(src.searchParams.has('lang')).toBe(false);
    expect(await frame.contentFrame().locator('html').getAttribute('lang')).toBe('fr');
    await eventually(() => statuses(shop.events)).toEqual(['incomplete']);

    // The customer finishes the form and approves the Mobile Money prompt; the chain confirms.
    await world.control('POST', `/transactions/${id}/complete-interactive`, { provider: 'mtn', phone: '+233241234567' });
    await world.control('POST', `/mobile-money/${id}/approve`);
    await world.control('POST', '/clock/advance', { seconds: 120 });
    await eventually(() => types(shop.events)).toContain('ramp-complete');
    expect(statuses(shop.events)).toEqual(['incomplete', 'pending_user_transfer_start', 'pending_anchor', 'pending_stellar', 'completed']);
    const complete = shop.events.find((e) => e.type === 'ramp-complete')!;
    expect(complete).toMatchObject({ bubbles: true, composed: true });
    expect(complete.detail.transaction).toMatchObject({ id, kind: 'deposit', status: 'completed', amount_in: '150.00' });

    // Closing hands focus back to the button that opened it.
    await widget(shop).locator('[part=close]').click();
    await eventually(() => dialog.count()).toBe(0);
    expect(types(shop.events).slice(-2)).toEqual(['ramp-complete', 'ramp-close']);
    expect(await trigger.evaluate((el) => el.matches(':focus'))).toBe(true);
    expect(types(shop.events).filter((t) => t === 'ramp-error')).toEqual([]);
    await shop.page.context().close();
  });

  it('completes a sell in a popup opened in the click, and notices the customer closing it', async () => {
    const shop = await world.open({ flow: 'sell', mode: 'popup', amount: '20' });
    await eventually(() => types(shop.events)).toContain('ramp-ready');
    expect(await widget(shop).locator('[part=wallet]').count()).toBe(0);
    const trigger = widget(shop).locator('[part=button]');
    const popupOpened = shop.page.waitForEvent('popup');
    await trigger.click();
    const popup = await popupOpened;
    const id = await openedId(shop);
    expect(shop.events.find((e) => e.type === 'ramp-open')!.detail).toMatchObject({ id, mode: 'popup' });
    await eventually(() => new URL(popup.url()).origin).toBe(new URL(world.mock.url).origin);
    await eventually(() => statuses(shop.events)).toEqual(['incomplete']);

    // The form shows the anchor's address and memo; the customer's wallet pays them.
    const { transaction } = await world.control('POST', `/transactions/${id}/complete-interactive`, { provider: 'telecel', phone: '+233201234567' });
    await eventually(() => statuses(shop.events)).toContain('pending_user_transfer_start');
    const waiting = shop.events.find((e) => e.type === 'ramp-status' && e.detail.transaction.status === 'pending_user_transfer_start')!;
    expect(waiting.detail.transaction).toMatchObject({
      kind: 'withdrawal',
      withdraw_anchor_account: transaction.withdraw_anchor_account,
      withdraw_memo: transaction.withdraw_memo,
    });
    await world.control('POST', '/stellar/payments', {
      from: stellarAccountId(),
      to: transaction.withdraw_anchor_account,
      amount: transaction.amount_in,
      asset_code: 'USDC',
      memo: transaction.withdraw_memo,
    });
    await world.control('POST', '/clock/advance', { seconds: 120 });
    await eventually(() => types(shop.events)).toContain('ramp-complete');
    expect(statuses(shop.events)).toEqual(['incomplete', 'pending_user_transfer_start', 'pending_external', 'pending_payout_confirmation', 'completed']);

    // The customer closes the popup: the page hears of it, and focus is back on the button.
    await popup.close();
    await eventually(() => types(shop.events).at(-1)).toBe('ramp-close');
    expect(shop.events.at(-1)!.detail.transaction).toMatchObject({ id, status: 'completed' });
    expect(await trigger.evaluate((el) => el.matches(':focus'))).toBe(true);
    await shop.page.context().close();
  });

  it('falls back to a Continue button when the browser blocks the popup, without a second transaction', async () => {
    const before = world.sessionRequests.length;
    // open() called with no click behind it: Chromium's popup blocker refuses the window.
    const shop = await world.open({ flow: 'buy', mode: 'popup' }, { autoOpen: true });
    await eventually(() => types(shop.events)).toContain('ramp-error');
    expect(shop.events.find((e) => e.type === 'ramp-error')!.detail).toMatchObject({ code: 'popup_blocked' });
    expect(await shop.page.getByRole('alert').textContent()).toContain('blocked');
    expect(types(shop.events)).not.toContain('ramp-open');

    const popupOpened = shop.page.waitForEvent('popup');
    await widget(shop).locator('[part=continue]').click();
    const popup = await popupOpened;
    const id = await openedId(shop);
    await eventually(() => statuses(shop.events)).toEqual(['incomplete']);
    expect(new URL(popup.url()).searchParams.get('origin')).toBe(world.shop);
    expect(world.sessionRequests.length - before).toBe(1);
    expect(await widget(shop).locator('[part=continue]').count()).toBe(0);
    expect(await shop.page.getByRole('alert').count()).toBe(0);
    await popup.close();
    await eventually(() => types(shop.events).at(-1)).toBe('ramp-close');
    expect(shop.events.at(-1)!.detail.transaction).toMatchObject({ id, status: 'incomplete' });
    await shop.page.context().close();
  });

  it('polls the merchant backend once the popup is closed mid-flow, until completion', async () => {
    const destination = stellarAccountId();
    const shop = await world.open({ flow: 'buy', mode: 'popup', amount: '80', destination, 'status-url': '/status' });
    await eventually(() => types(shop.events)).toContain('ramp-ready');
    const popupOpened = shop.page.waitForEvent('popup');
    await widget(shop).locator('[part=button]').click();
    const popup = await popupOpened;
    const id = await openedId(shop);
    await eventually(() => statuses(shop.events)).toEqual(['incomplete']);
    await world.control('POST', `/transactions/${id}/complete-interactive`, { provider: 'airteltigo', phone: '+233271234567' });
    await eventually(() => statuses(shop.events)).toContain('pending_user_transfer_start');

    // The customer closes the window while the prompt is on their phone; no message can come now.
    await popup.close();
    await eventually(() => types(shop.events)).toContain('ramp-close');
    await world.control('POST', `/mobile-money/${id}/approve`);
    await world.control('POST', '/clock/advance', { seconds: 120 });
    await eventually(() => types(shop.events)).toContain('ramp-complete');
    expect(statuses(shop.events).at(-1)).toBe('completed');
    expect(types(shop.events).indexOf('ramp-close')).toBeLessThan(types(shop.events).indexOf('ramp-complete'));
    expect(shop.events.find((e) => e.type === 'ramp-complete')!.detail.transaction).toMatchObject({ id, kind: 'deposit', amount_in: '80.00' });
    await shop.page.context().close();
  });

  it('goes through a full-page redirect and reports the result on the way back', async () => {
    const destination = stellarAccountId();
    const shop = await world.open({ flow: 'buy', mode: 'redirect', amount: '120', destination });
    await eventually(() => types(shop.events)).toContain('ramp-ready');
    await widget(shop).locator('[part=button]').click();
    await shop.page.waitForURL((url) => url.origin === new URL(world.mock.url).origin);
    const id = shop.events.find((e) => e.type === 'ramp-open')!.detail.id as string;
    expect(shop.events.find((e) => e.type === 'ramp-open')!.detail.mode).toBe('redirect');

    await world.control('POST', `/transactions/${id}/complete-interactive`, { provider: 'mtn', phone: '+233241234567' });
    await world.control('POST', `/mobile-money/${id}/approve`);
    await world.control('POST', '/clock/advance', { seconds: 120 });
    // The interactive page, alone in the window, offers the way back to the merchant's redirect_url.
    const back = shop.page.locator('#back-link');
    await back.waitFor({ state: 'visible', timeout: 30_000 });
    await back.click();
    await shop.page.waitForURL((url) => url.origin === world.shop);
    const returned = new URL(shop.page.url());
    expect(returned.searchParams.get('transaction_id')).toBe(id);

    await eventually(() => types(shop.events)).toContain('ramp-complete');
    // Before leaving: ready, open. Back: the result (and ready again, once the config is read).
    expect(types(shop.events).filter((t) => t !== 'ramp-ready')).toEqual(['ramp-open', 'ramp-status', 'ramp-complete']);
    expect(shop.events.find((e) => e.type === 'ramp-complete')!.detail.transaction).toEqual({ id, status: 'completed' });
    // Reloading the page does not report the same transaction twice.
    await shop.page.reload();
    await eventually(() => types(shop.events).filter((t) => t === 'ramp-ready')).toHaveLength(3);
    expect(types(shop.events).filter((t) => t === 'ramp-complete')).toHaveLength(1);
    await shop.page.context().close();
  });

  it('keeps keyboard focus in the dialog, closes on Escape, and returns focus to the trigger', async () => {
    const shop = await world.open({ flow: 'sell', mode: 'iframe' });
    await eventually(() => types(shop.events)).toContain('ramp-ready');
    const trigger = widget(shop).locator('[part=button]');
    await shop.page.locator('#before').focus();
    await shop.page.keyboard.press('Tab');
    expect(await trigger.evaluate((el) => el.matches(':focus'))).toBe(true);
    await shop.page.keyboard.press('Enter');
    await openedId(shop);
    await eventually(() => statuses(shop.events)).toEqual(['incomplete']);
    const close = widget(shop).locator('[part=close]');
    expect(await close.evaluate((el) => el.matches(':focus'))).toBe(true);

    // Tab through everything, inside the interactive page too: the page behind stays out of reach.
    const where: string[] = [];
    for (let i = 0; i < 25; i++) {
      await shop.page.keyboard.press('Tab');
      where.push(
        await shop.page.evaluate(() => {
          const active = document.activeElement;
          return active?.shadowRoot?.activeElement?.getAttribute('part') ?? active?.id ?? '';
        }),
      );
    }
    // The close button, the interactive page's fields, and (as with any modal dialog) the
    // browser's own controls; never the page behind.
    expect(new Set(where)).toEqual(new Set(['close', 'frame', '']));

    await close.focus();
    await shop.page.keyboard.press('Escape');
    await eventually(() => widget(shop).locator('dialog').count()).toBe(0);
    expect(types(shop.events).at(-1)).toBe('ramp-close');
    expect(await trigger.evaluate((el) => el.matches(':focus'))).toBe(true);
    await shop.page.context().close();
  });

  it.each(['iframe', 'popup'])(
    'tells the interactive page its origin, so that a key allowed on two sites still gets messages (%s)',
    async (mode) => {
      const key = world.twoSitePublicKey;
      // No Referer from this page: the page learns the origin only from the URL the widget opens.
      const shop = await world.open({ 'data-api-key': key, 'session-url': '/session?key=two-site', flow: 'sell', mode, amount: '20' }, { noReferrer: true });
      await eventually(() => types(shop.events)).toContain('ramp-ready');
      const popupOpened = mode === 'popup' ? shop.page.waitForEvent('popup') : undefined;
      await widget(shop).locator('[part=button]').click();
      const id = await openedId(shop);
      const url = new URL(shop.events.find((e) => e.type === 'ramp-open')!.detail.url);
      expect(url.searchParams.get('origin')).toBe(world.shop);
      if (popupOpened) await eventually(async () => new URL((await popupOpened).url()).searchParams.get('origin')).toBe(world.shop);
      else expect(new URL((await widget(shop).locator('iframe').getAttribute('src'))!).searchParams.get('origin')).toBe(world.shop);
      await eventually(() => statuses(shop.events)).toEqual(['incomplete']);
      await world.control('POST', `/transactions/${id}/complete-interactive`, { provider: 'mtn', phone: '+233241234567' });
      await eventually(() => statuses(shop.events)).toEqual(['incomplete', 'pending_user_transfer_start']);
      await shop.page.context().close();
    },
  );

  it('closes on Escape pressed inside the interactive page, and returns focus to the trigger', async () => {
    const shop = await world.open({ flow: 'buy', mode: 'iframe', amount: '40', destination: stellarAccountId() });
    await eventually(() => types(shop.events)).toContain('ramp-ready');
    const trigger = widget(shop).locator('[part=button]');
    await trigger.click();
    await openedId(shop);
    await eventually(() => statuses(shop.events)).toEqual(['incomplete']);

    // The customer is typing their number in the cross-origin page: the key never reaches ours.
    const phone = widget(shop).locator('iframe').contentFrame().getByLabel('Mobile Money number');
    await phone.fill('024');
    expect(await phone.evaluate((el) => el.matches(':focus'))).toBe(true);
    await shop.page.keyboard.press('Escape');
    await eventually(() => widget(shop).locator('dialog').count()).toBe(0);
    expect(types(shop.events).at(-1)).toBe('ramp-close');
    await eventually(() => trigger.evaluate((el) => el.matches(':focus'))).toBe(true);
    await shop.page.context().close();
  });

  it('ignores SEP-24 messages from any other origin, and about any other transaction', async () => {
    const destination = stellarAccountId();
    const shop = await world.open({ flow: 'buy', mode: 'iframe', amount: '60', destination });
    await eventually(() => types(shop.events)).toContain('ramp-ready');
    await widget(shop).locator('[part=button]').click();
    const id = await openedId(shop);
    await eventually(() => statuses(shop.events)).toEqual(['incomplete']);
    await shop.page.evaluate(() => {
      (window as any).seen = [];
      addEventListener('message', (e) => (window as any).seen.push({ origin: e.origin, data: e.data }));
    });
    const seen = () => shop.page.evaluate(() => (window as any).seen as { origin: string; data: any }[]);
    const frame = (src: string) =>
      shop.page.evaluate((url) => document.body.append(Object.assign(document.createElement('iframe'), { src: url })), src);

    // The shop's own page, then a stranger's frame, each claiming the transaction completed and
    // asking the dialog to close.
    await shop.page.evaluate((txId) => {
      postMessage({ transaction: { id: txId, status: 'completed' } }, '*');
      postMessage({ type: 'sikaramp:close', transaction_id: txId }, '*');
    }, id);
    await frame(`${world.stranger}/?id=${id}`);
    await eventually(async () => (await seen()).map((m) => m.origin)).toEqual([world.shop, world.shop, world.stranger, world.stranger]);

    // The real interactive page, for another transaction of the same shop: right origin, wrong id.
    const res = await fetch(`${world.shop}/session`, {
      method: 'POST',
      body: JSON.stringify({ flow: 'buy', asset: 'USDC', amount: 60, destination }),
    });
    const other = (await res.json()) as { url: string; id: string };
    await frame(`${other.url}&origin=${encodeURIComponent(world.shop)}`);
    await eventually(async () => (await seen()).length).toBe(5);
    // Escape in that page (it sits behind the modal dialog, so the key is dispatched to it).
    const otherPage = shop.page.frames().find((f) => f.url().startsWith(other.url))!;
    await otherPage.evaluate(() => dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' })));
    await eventually(async () => (await seen()).at(-1)?.data).toEqual({ type: 'sikaramp:close', transaction_id: other.id });
    await world.control('POST', `/transactions/${other.id}/complete-interactive`, { provider: 'mtn', phone: '+233241234567' });
    await eventually(async () => (await seen()).at(-1)?.data.transaction?.status).toBe('pending_user_transfer_start');
    const fromOther = (await seen()).slice(4);
    expect(fromOther.every((m) => m.origin === new URL(world.mock.url).origin && (m.data.transaction?.id ?? m.data.transaction_id) === other.id)).toBe(true);

    const onPage = () => shop.page.evaluate(() => (window as any).rampEvents as { type: string; detail: any }[]);
    expect(statuses(await onPage())).toEqual(['incomplete']);
    expect(types(await onPage())).toEqual(['ramp-ready', 'ramp-open', 'ramp-status']);
    expect(await shop.page.getByRole('dialog').isVisible()).toBe(true);

    // The open transaction's own page is still heard.
    await world.control('POST', `/transactions/${id}/complete-interactive`, { provider: 'mtn', phone: '+233241234567' });
    await eventually(async () => statuses(await onPage())).toEqual(['incomplete', 'pending_user_transfer_start']);
    await shop.page.context().close();
  });

  it('loads Freighter only when the customer connects a wallet, and says so when it is missing', async () => {
    const shop = await world.open({ flow: 'buy', mode: 'iframe' });
    await eventually(() => types(shop.events)).toContain('ramp-ready');
    const wallet = widget(shop).locator('[part=wallet]');
    expect((await wallet.textContent())!.trim()).toBe('Connect wallet');
    const loaded = () => shop.requests.filter((url) => url.endsWith(`/widget/${world.freighterChunk}`));
    expect(loaded()).toEqual([]);

    await wallet.click();
    await eventually(() => types(shop.events)).toContain('ramp-error');
    expect(loaded()).toHaveLength(1);
    expect(shop.events.find((e) => e.type === 'ramp-error')!.detail).toMatchObject({ code: 'wallet_unavailable' });
    expect(await shop.page.getByRole('alert').textContent()).toContain('Freighter is not installed');
    await shop.page.context().close();
  });

  it('fills the destination of a buy from Freighter', async () => {
    const address = stellarAccountId();
    const shop = await world.open({ flow: 'buy', mode: 'iframe', amount: '50' });
    await eventually(() => types(shop.events)).toContain('ramp-ready');
    // The extension's content script, as Freighter answers its page API.
    await shop.page.evaluate((publicKey) => {
      addEventListener('message', (e) => {
        if (e.source !== window || e.data?.source !== 'FREIGHTER_EXTERNAL_MSG_REQUEST') return;
        postMessage({ source: 'FREIGHTER_EXTERNAL_MSG_RESPONSE', messagedId: e.data.messageId, isConnected: true, publicKey }, location.origin);
      });
    }, address);
    const wallet = widget(shop).locator('[part=wallet]');
    await wallet.click();
    await eventually(async () => (await wallet.textContent())!.trim()).toBe(`${address.slice(0, 4)}…${address.slice(-4)}`);
    expect(await widget(shop).evaluate((el: any) => el.destination)).toBe(address);

    await widget(shop).locator('[part=button]').click();
    await openedId(shop);
    expect(world.sessionRequests.at(-1)).toMatchObject({ flow: 'buy', amount: 50, destination: address });
    expect(types(shop.events)).not.toContain('ramp-error');
    await shop.page.context().close();
  });

  it('reports a widget config the service refuses for this page (origin not allowed)', async () => {
    const shop = await world.open({ 'data-api-key': world.foreignPublicKey });
    await eventually(() => types(shop.events)).toEqual(['ramp-error']);
    expect(shop.events[0]!.detail).toMatchObject({ code: 'config_failed' });
    expect(shop.events[0]!.detail.message).toContain('allowed domains');
    expect(await shop.page.getByRole('alert').textContent()).toContain('allowed domains');
    await shop.page.context().close();
  });

  it('asks for api-base rather than sending the key to an address of its own', async () => {
    const shop = await world.open({ 'api-base': null });
    await eventually(() => types(shop.events)).toEqual(['ramp-error']);
    expect(shop.events[0]!.detail).toMatchObject({ code: 'config_failed' });
    expect(await shop.page.getByRole('alert').textContent()).toContain('set api-base');
    expect(shop.requests.filter((url) => !url.startsWith(world.shop))).toEqual([]);
    await shop.page.context().close();
  });

  it('starts one transaction for two clicks made before the merchant backend answers', async () => {
    const shop = await world.open({ flow: 'sell', mode: 'iframe' });
    await eventually(() => types(shop.events)).toContain('ramp-ready');
    const before = world.sessionRequests.length;
    await widget(shop).evaluate((el) => {
      const button = el.shadowRoot!.querySelector<HTMLButtonElement>('[part=button]')!;
      button.click();
      button.click();
    });
    await openedId(shop);
    await eventually(() => statuses(shop.events)).toEqual(['incomplete']);
    expect(world.sessionRequests.length - before).toBe(1);
    expect(types(shop.events).filter((t) => t === 'ramp-open')).toHaveLength(1);
    await shop.page.context().close();
  });
});
