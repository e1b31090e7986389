import { http, HttpResponse } from 'msw';
import type { MockContext } from '../../context.js';
import { USDC_ISSUER } from '../../quotes.js';
import { anchorAccount } from '../../transactions/accounts.js';
import { networkPassphrase, webAuthEndpoint } from './sep10.js';

/** The anchor's SEP-1 file, from the current URLs, keys and network. */
export function stellarToml(ctx: MockContext): string {
  const q = (value: string) => JSON.stringify(value);
  return `# Sikaramp mock anchor: a test double, not a real service.
VERSION="2.7.0"
NETWORK_PASSPHRASE=${q(networkPassphrase(ctx))}
SIGNING_KEY=${q(ctx.anchorKeypair.publicKey())}
WEB_AUTH_ENDPOINT=${q(webAuthEndpoint(ctx))}
KYC_SERVER=${q(ctx.urls.anchor)}
TRANSFER_SERVER_SEP0024=${q(ctx.urls.anchor)}
ANCHOR_QUOTE_SERVER=${q(`${ctx.urls.anchor}/sep38`)}
ACCOUNTS=[${q(anchorAccount(ctx))}]

[DOCUMENTATION]
ORG_NAME="Sikaramp (mock)"
ORG_URL=${q(ctx.urls.origin)}

[[CURRENCIES]]
code="USDC"
issuer=${q(USDC_ISSUER[ctx.options.network])}
status=${q(ctx.options.network === 'public' ? 'live' : 'test')}
is_asset_anchored=true
anchor_asset_type="fiat"
anchor_asset="USD"
display_decimals=2
name="USD Coin"
desc="Bought with and sold for Ghana cedis over Mobile Money (MTN MoMo, Telecel Cash, AirtelTigo Money)."
`;
}

/** `GET /.well-known/stellar.toml` at the root of the anchor's origin (SEP-1: text, open to every origin). */
export function stellarTomlHandlers(ctx: MockContext) {
  return [
    http.get(`${new URL(ctx.urls.anchor).origin}/.well-known/stellar.toml`, () =>
      HttpResponse.text(stellarToml(ctx), {
        headers: { 'content-type': 'text/plain; charset=utf-8', 'access-control-allow-origin': '*' },
      }),
    ),
  ];
}
