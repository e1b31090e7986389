/**
 * What the widget asks of others: your backend (the session and the status, by URL or by your
 * callback), the widget backend (the config) and Freighter (an address). Each answers or throws
 * an Error whose message says why; the element reports it.
 */
import type { RampSession, RampSessionRequest, RampTransaction, RampWidgetConfig } from './events.js';
import type { Strings } from './strings.js';

/** Where the element's sessions and statuses come from (its properties): a function of the page's, or a URL of your backend. */
interface BackendSource {
  sessionUrl?: string;
  statusUrl?: string;
  getSession?: (request: RampSessionRequest) => Promise<RampSession>;
  getStatus?: (id: string) => Promise<RampTransaction>;
}

async function json(url: string, init?: RequestInit) {
  const res = await fetch(url, init);
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw Error(body.error?.message ?? `${url} answered ${res.status}`);
  return body;
}

/** The transaction id and the interactive URL, which is a web page's and carries this page's origin. */
export async function startSession(el: Pick<BackendSource, 'getSession' | 'sessionUrl'>, request: RampSessionRequest) {
  if (!el.getSession && !el.sessionUrl) throw Error('set session-url or getSession');
  let session: RampSession = el.getSession
    ? await el.getSession(request)
    : await json(el.sessionUrl!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(request) });
  // A backend that passes the widget backend's envelope through is fine too.
  session = (session as { data?: RampSession }).data ?? session;
  const url = new URL(session.url);
  // Only a web page opens: a javascript: URL would run in this page, and the origin of a data:
  // or blob: URL ("null", or its creator's) proves nothing. http: only on this machine (the mock).
  if (!/^(https:|http:(localhost|127\.0\.0\.1)$)/.test(url.protocol + url.hostname)) throw Error('not https');
  // The interactive page sends its postMessages to this origin, if the key allows it.
  url.searchParams.set('origin', location.origin);
  return { id: session.id, url };
}

/** The transaction from your backend: `{ transaction }` (SEP-24) or the transaction itself. */
export async function readStatus(el: Pick<BackendSource, 'getStatus' | 'statusUrl'>, id: string): Promise<RampTransaction> {
  if (el.getStatus) return el.getStatus(id);
  const url = new URL(el.statusUrl!, location.href);
  url.searchParams.set('id', id);
  const body = await json(url.href);
  return body.transaction ?? body;
}

/** The merchant's widget config, read with the public key. */
export async function readConfig(apiBase: string | undefined, apiKey: string): Promise<RampWidgetConfig> {
  // No built-in address to guess at: the key goes only where the page says.
  if (!apiBase) throw Error('set api-base');
  return (await json(`${apiBase}/api/v1/widget/config`, { headers: { 'X-API-Key': apiKey } })).data;
}

/** The customer's address from Freighter, loaded only now so that other pages never download it. */
export async function freighterAddress(t: Strings): Promise<string> {
  const freighter = await import('./freighter.js');
  if (!(await freighter.isConnected()).isConnected) throw Error(t.noFreighter);
  const { address, error } = await freighter.requestAccess();
  if (error) throw Error(`Freighter: ${error.message}`);
  return address;
}
