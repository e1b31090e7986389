import { html, nothing } from 'lit-html';
import { freighterAddress, readConfig, readStatus, startSession } from './backend.js';
import { focused, pending, popup } from './dom.js';
import { ReactiveElement } from './element.js';
import { LIFECYCLE, type LifecycleEvent, type State } from './lifecycle.js';
import type {
  RampError,
  RampErrorCode,
  RampEventMap,
  RampResult,
  RampSession,
  RampSessionRequest,
  RampTransaction,
  RampWidgetConfig,
} from './events.js';
import { FINAL, langParam } from './sep24.js';
import { langOf, strings } from './strings.js';

const rampError = (code: RampError['code'], message: string, transaction?: RampTransaction): RampError =>
  Object.assign(Error(message), { name: 'RampError' as const, code, transaction });

/**
 * @summary Buy or sell USDC with Mobile Money: opens the Sikaramp interactive flow in a modal
 * iframe, a popup or a full-page redirect, and reports its progress as DOM events. An event is
 * not settlement: fulfil orders from the signed webhook your backend receives.
 *
 * @slot - The label of the open button (default "Buy USDC" / "Sell USDC", in the `lang` in force: English or French).
 *
 * @fires {RampEvent<'ramp-ready'>} ramp-ready - The widget config is applied; the widget can open.
 * @fires {RampEvent<'ramp-open'>} ramp-open - The flow opened (redirect: is being navigated to).
 * @fires {RampEvent<'ramp-status'>} ramp-status - The transaction moved to a new SEP-24 status.
 * @fires {RampEvent<'ramp-complete'>} ramp-complete - The transaction reached `completed`.
 * @fires {RampEvent<'ramp-error'>} ramp-error - Something failed; `detail.code` says what.
 * @fires {RampEvent<'ramp-close'>} ramp-close - The iframe or popup was closed.
 *
 * @csspart button - The open button.
 * @csspart wallet - The "Connect wallet" button (Freighter), on a buy without `destination`.
 * @csspart status - The loading text shown while your backend answers (a live region).
 * @csspart message - The error text.
 * @csspart continue - The button that opens the popup when the browser blocked it.
 * @csspart dialog - The modal dialog of iframe mode.
 * @csspart close - The dialog's close button.
 * @csspart frame - The iframe.
 *
 * @cssproperty --ramp-primary-color - Brand colour; default: the widget config's `primary_color`.
 * @cssproperty --ramp-border-radius - Corner radius; default: the widget config's `border_radius`.
 */
export class RampWidget extends ReactiveElement {
  /** Your public key (`sika_public_…`), for the widget config. Anything else (a secret or checkout key) is refused: nothing is sent. */
  declare apiKey: string;
  /** `buy` USDC with Mobile Money, or `sell` USDC for Mobile Money. Default `buy`. */
  declare flow: 'buy' | 'sell';
  /** `iframe` (a modal dialog), `popup`, or `redirect` (the whole page), read when the flow opens. Default `iframe`. */
  declare mode: 'iframe' | 'popup' | 'redirect';
  /** Your backend's endpoint: receives a POSTed {@link RampSessionRequest}, answers {@link RampSession}. */
  declare sessionUrl?: string;
  /** Your backend's endpoint answering the transaction for `?id=`, polled where messages cannot arrive. */
  declare statusUrl?: string;
  /**
   * The widget backend the config is read from, `{base_url}`: the address your account gives
   * you (the SDK's `baseUrl`), or the mock server in development. Required with `data-api-key`.
   */
  declare apiBase?: string;
  /** GHS to spend (buy) or USDC to sell (sell); the customer enters it when absent. */
  declare amount?: number;
  /** The asset. Default `USDC`, the only one. */
  declare asset: string;
  /** Buy: the Stellar address that receives the USDC; "Connect wallet" fills it from Freighter. */
  declare destination?: string;
  /** The iframe's `allow` (permissions policy). Default {@link DEFAULT_ALLOW}. */
  declare allow: string;
  /** How often the status is polled, milliseconds. Default 5000; at least 500. */
  declare pollInterval: number;
  // The two callbacks are plain properties: they render nothing and have no attribute.
  /** Instead of `session-url`: asks your backend for the interactive URL and transaction id. */
  declare getSession?: (request: RampSessionRequest) => Promise<RampSession>;
  /** Instead of `status-url`: reads the transaction from your backend. */
  declare getStatus?: (id: string) => Promise<RampTransaction>;

  #id = '';
  #tx?: RampTransaction;
  #url = '';
  #origin = '';
  /** The flow's `mode`, read when it starts: a page's change takes effect on the next open(). */
  #mode!: RampWidget['mode'];
  /** Where the flow is; only #to moves it, by lifecycle.ts's table. */
  #state: State = 'idle';
  /** The popup; null for the iframe. */
  #win?: Window | null;
  #trigger?: HTMLElement | null;
  /** What `open()` returned last: a call while the flow is opening, blocked or open gets it too. */
  #result?: Promise<RampResult>;
  /** Its resolve and reject. */
  #settle?: [(result: RampResult) => void, (error: RampError) => void];
  #error = '';
  #wallet = '';
  #timer?: ReturnType<typeof setTimeout>;
  #langs = new MutationObserver(() => this.update());

  connectedCallback() {
    // A `lang` that changes anywhere (the element's, an ancestor's, <html lang>) re-renders the texts.
    this.#langs.observe(document, { attributeFilter: ['lang'], subtree: true });
    this.update();
  }

  /** Anything but a public key (`<prefix>_public_<hex>`, recognised by its form): a secret or checkout key, a typo. */
  get #secret() {
    return !/^([a-z]+_public_[\da-f]+)?$/i.test(this.apiKey);
  }

  /**
   * Opens the flow; resolves with the completed transaction, or rejects with a {@link RampError}
   * whose `code` says why: `secret_key`, `session_failed`, `transaction_failed`, or `closed` when
   * the customer closed it first. A call while the flow is opening or open returns the same
   * promise. In redirect mode it never settles: the page leaves. In popup mode call it from a
   * click handler: the window opens before anything is awaited, so browsers allow it.
   */
  open(): Promise<RampResult> {
    let win;
    // A popup the customer just closed may not have been noticed yet (it is checked every 500 ms).
    if (this.#win?.closed) this.close();
    // The click the browser blocked the popup for is done: this one (Continue's, or the open
    // button's) can open it, for the session there is, so nothing is awaited. Blocked again, it stays.
    if (this.#state == 'blocked' && (win = popup())) {
      this.#trigger = focused();
      this.#show(win);
    }
    if (this.#secret) return Promise.reject(rampError('secret_key', this.#t.secret));
    // A new transaction, unless one is opening, blocked or open: its promise, settled or not, again.
    if (this.#to('open')) {
      this.#result = new Promise((...settle) => (this.#settle = settle));
      this.#start();
    }
    return this.#result!;
  }

  /**
   * Moves the flow by `event` (lifecycle.ts) and renders it: the render's promise; undefined,
   * and nothing changes, where the table has no row for `event` in the current state.
   */
  #to(event: LifecycleEvent): Promise<void> | undefined {
    const state = (LIFECYCLE[this.#state] as { [E in LifecycleEvent]?: State })[event];
    if (!state) return;
    this.#state = state;
    return this.update();
  }

  /** The open button: the page may not be awaiting the promise, so its rejection is not unhandled. */
  #click() {
    this.open().catch(() => {});
  }

  /** Settles what `open()` returned, with the result or the error (once: a promise settles once). */
  #end(result: RampResult | RampError) {
    this.#settle?.[result instanceof Error ? 1 : 0](result as RampResult & RampError);
  }

  async #start() {
    this.#trigger = focused();
    // A new flow: the closed transaction's poll ends, and its statuses no longer count.
    clearTimeout(this.#timer);
    this.#id = '';
    this.#tx = undefined;
    const mode = (this.#mode = this.mode);
    const win = mode == 'popup' ? popup() : null;
    const request: RampSessionRequest = {
      flow: this.flow,
      amount: this.amount,
      asset: this.asset,
      destination: this.destination || undefined,
      // Your backend passes it on when it starts the transaction, so the page opens in it.
      lang: langParam(langOf(this)),
    };
    let session;
    try {
      session = await startSession(this, request);
    } catch (error) {
      win?.close();
      this.#end(this.#fail('session_failed', this.#t.session + (error as Error).message));
      return this.#to('fail');
    }
    this.#url = session.url.href;
    this.#origin = session.url.origin;
    this.#id = session.id;
    if (win || mode != 'popup') return this.#show(win);
    // The promise stays pending: the Continue button opens the popup for this same transaction.
    this.#to('block');
    this.#fail('popup_blocked', this.#t.blocked);
  }

  /**
   * Closes the iframe or popup; focus goes back to what opened it, or to the open button when
   * that is gone (Continue). The transaction goes on; its status is then polled from `status-url`
   * until it ends or the next open().
   */
  close(): void {
    // Nothing open (idle, opening, blocked): nothing to close.
    if (!this.#to('close')) return;
    clearTimeout(this.#timer);
    removeEventListener('message', this.#onMessage); // window's
    this.#win?.close();
    // Leave the modal state before moving focus, or the page is still inert.
    this.shadowRoot!.querySelector('dialog')?.close();
    this.#emit('ramp-close', { transaction: this.#tx });
    // No-op once final: the promise settled then.
    this.#end(rampError('closed', 'Closed.', this.#tx));
    (this.#trigger?.isConnected ? this.#trigger : this.shadowRoot!.querySelector('button'))?.focus();
    this.#poll();
  }

  disconnectedCallback() {
    this.#langs.disconnect();
    this.close();
    clearTimeout(this.#timer);
  }

  /**
   * The first time: back from a redirect, the transaction this tab left for is polled, and the
   * status in the URL reported only with its id: whatever can navigate this tab (the page that
   * opened it) could write a status, but cannot know the id.
   */
  #back() {
    const id = pending(this.flow);
    const query = new URLSearchParams(location.search);
    const back = query.get('transaction_id');
    if (!id || (back ?? id) != id) return;
    this.#id = id;
    // (No status: null == the undefined of no status yet, which #report ignores.)
    if (back) this.#report({ id, status: query.get('status') } as RampTransaction);
    this.#poll();
  }

  /** After a render: the way back from a redirect, the first time; the config, when the key or address changed. */
  protected updated(changed: Set<string>, first: boolean) {
    if (first) this.#back();
    if (changed.has('apiKey') || changed.has('apiBase')) this.#config();
  }

  /** The widget's own texts, in its language. */
  get #t() {
    return strings(langOf(this));
  }

  protected render() {
    const t = this.#t;
    const title = this.flow == 'sell' ? t.sell : t.buy;
    const wallet = this.#wallet;
    const state = this.#state;
    const busy = state == 'opening';
    // Line breaks sit inside ${} only: whitespace in the template text would ship as it is.
    // The iframe's sandbox grants what the interactive page uses: scripts, its own origin (its API,
    // and the origin its messages carry) and forms; never top navigation, popups, modals or downloads.
    // While your backend answers, the button stays focusable (a disabled one would drop focus)
    // but is busy and ignores clicks; the status region next to it says why, to eyes and ears.
    return html`<button part="button" ?disabled=${this.#secret} aria-busy=${busy} aria-disabled=${busy} @click=${this.#click}><slot>${title}</slot></button><span part="status" role="status">${busy ? t.loading : ''}</span> ${
      this.flow == 'buy' && (!this.destination || wallet)
        ? html`<button part="wallet" @click=${this.#connect}>${wallet ? `${wallet.slice(0, 4)}…${wallet.slice(-4)}` : t.wallet}</button>`
        : nothing
    }${this.#error ? html`<p part="message" role="alert">${this.#error}</p>` : nothing}${
      state == 'blocked' ? html`<button part="continue" @click=${this.#click}>${t.continue}</button>` : nothing
    }${
      state == 'open' && !this.#win
        ? html`<dialog part="dialog" aria-label=${title} @cancel=${this.#cancel}><header><h2>${title}</h2><button part="close" aria-label=${t.close} autofocus @click=${this.close}>×</button></header><iframe part="frame" title=${title} allow=${this.allow} sandbox="allow-scripts allow-same-origin allow-forms" src=${this.#url}></iframe></dialog>`
        : nothing
    }`;
  }

  /**
   * Shows the flow in the popup `win`, in the modal iframe, or (redirect) in this page. Open
   * before ramp-open fires, so that a listener's close() or open() meets an open flow.
   */
  async #show(win: Window | null) {
    this.#win = win;
    this.#error = '';
    const mode = this.#mode;
    if (mode == 'redirect') {
      this.#to('redirect');
      this.#emit('ramp-open', { id: this.#id, url: this.#url, mode });
      pending(this.flow, this.#id);
      return location.assign(this.#url);
    }
    const rendered = this.#to('show');
    addEventListener('message', this.#onMessage); // window's
    if (win) {
      win.location.href = this.#url;
      this.#timer = setInterval(() => win.closed && this.close(), 500);
    }
    this.#emit('ramp-open', { id: this.#id, url: this.#url, mode });
    await rendered;
    // (Absent when a ramp-open listener closed it.)
    if (!win) this.shadowRoot!.querySelector('dialog')?.showModal();
  }

  /** Escape: our close, so that focus goes back to the trigger. */
  #cancel(event: Event) {
    event.preventDefault();
    this.close();
  }

  /**
   * Messages of the interactive page, only from its origin, only from our iframe or popup (not
   * another window of that origin), and only about the open transaction:
   * SEP-24's `{ transaction }`, and `{ type: 'sikaramp:close', transaction_id }` for an Escape
   * pressed inside the iframe, where the dialog cannot hear it.
   */
  #onMessage = ({ origin, data, source }: MessageEvent) => {
    if (origin != this.#origin || source !== (this.#win || this.shadowRoot!.querySelector('iframe')?.contentWindow)) return;
    if (data?.type != 'sikaramp:close') this.#report(data?.transaction ?? {});
    else if (data.transaction_id == this.#id) this.close();
  };

  #report(transaction: RampTransaction) {
    if (transaction.id != this.#id || transaction.status == this.#tx?.status) return;
    const { status } = transaction;
    this.#tx = transaction;
    this.#emit('ramp-status', { transaction });
    if (!FINAL.test(status)) return;
    pending(this.flow, null);
    if (status == 'completed') {
      this.#emit('ramp-complete', { transaction });
      this.#end({ transaction });
    } else this.#end(this.#fail('transaction_failed', transaction.message ?? status, transaction));
  }

  /** Polls your backend while the transaction is unfinished and no window can send messages, until a new flow starts. */
  #poll() {
    const id = this.#id;
    if (!this.isConnected || !id || FINAL.test(this.#tx?.status ?? '')) return;
    if (!this.getStatus && !this.statusUrl) return;
    this.#timer = setTimeout(async () => {
      try {
        this.#report(await readStatus(this, id));
      } catch {}
      // (A new flow forgot this transaction.)
      if (id == this.#id) this.#poll();
      // A typo must not poll without a pause: not a number (or 0) is the default, and the pause is
      // 0.5 s at least and within setTimeout's range (past it, a timer fires at once).
    }, Math.min(Math.max(this.pollInterval || 5000, 500), 2 ** 31 - 1));
  }

  async #config() {
    this.#error = '';
    if (this.#secret) {
      return this.#fail('secret_key', this.#t.secret);
    }
    let config: RampWidgetConfig | undefined;
    if (this.apiKey) {
      try {
        config = await readConfig(this.apiBase, this.apiKey);
      } catch (error) {
        return this.#fail('config_failed', this.#t.config + (error as Error).message);
      }
      // Only a hex colour and a length reach CSS: a url() there would be fetched, a beacon.
      // (A value that is not a string fails the test, as "undefined" does.)
      const theme = config?.theme;
      this.style.setProperty('--_cp', /^#([\da-f]{3}){1,2}$/i.exec(theme?.primary_color!)?.[0] ?? '');
      this.style.setProperty('--_cr', /^(0|\d+(\.\d+)?(px|r?em|%))$/.exec(theme?.border_radius!)?.[0] ?? '');
    }
    this.update();
    this.#emit('ramp-ready', { config });
  }

  /** "Connect wallet": fills `destination` from Freighter. */
  async #connect() {
    this.#error = '';
    try {
      this.destination = this.#wallet = await freighterAddress(this.#t);
    } catch (error) {
      this.#fail('wallet_unavailable', (error as Error).message);
    }
  }

  /** Shows the error and fires `ramp-error`; returns it as `open()`'s rejection, which #end gets from the failures that end the flow. */
  #fail(code: RampErrorCode, message: string, transaction?: RampTransaction) {
    this.#error = message;
    this.update();
    this.#emit('ramp-error', { code, message, transaction });
    return rampError(code, message, transaction);
  }

  #emit<K extends keyof RampEventMap>(type: K, detail: RampEventMap[K]) {
    this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
  }
}
