/**
 * The dashboard for people at `GET /_mock/` (same origin as the mock, in-process and
 * standalone): the simulated world at a glance, live, with the control calls as buttons.
 * The page (./page.ts) carries the first snapshot; its script (./browser/main.ts, bundled with
 * its hash by mock-server/scripts/browser-scripts.ts) polls `GET /_mock/snapshot` with the
 * ETag it last saw and sends its actions to the control routes.
 */
import { http, HttpResponse, type HttpHandler } from 'msw';
import type { MockContext } from '../../context.js';
import { route } from '../../http/respond.js';
import { hash as scriptHash, script } from './browser.generated.js';
import type { DashboardSnapshot } from './model.js';
import { renderDashboard } from './page.js';
import { DASHBOARD_CSS } from './styles.js';

/** How often the page asks for news, milliseconds of real time. */
export const DASHBOARD_POLL_MS = 1000;

let cssHash: Promise<string> | undefined;
async function sha256Base64(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return btoa(String.fromCharCode(...digest));
}

/**
 * Nothing runs or loads but the page's own style and script (pinned by hash) and its calls to
 * its own origin; no page may frame it (its buttons act on the mock).
 */
async function csp() {
  return [
    "default-src 'none'",
    `style-src 'sha256-${await (cssHash ??= sha256Base64(DASHBOARD_CSS))}'`,
    `script-src 'sha256-${scriptHash}'`,
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export function dashboardPageHandlers(ctx: MockContext, snapshot: () => DashboardSnapshot): HttpHandler[] {
  const page = route(ctx, 'envelope', async () => {
    const body = renderDashboard({ control: ctx.urls.control, pollMs: DASHBOARD_POLL_MS, snapshot: snapshot() }, DASHBOARD_CSS, script);
    return new HttpResponse(body, {
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        'content-security-policy': await csp(),
        'referrer-policy': 'no-referrer',
        'x-content-type-options': 'nosniff',
      },
    });
  });
  return [http.get(`${ctx.urls.control}/`, page), http.get(ctx.urls.control, page)];
}
