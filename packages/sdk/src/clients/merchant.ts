import { withResponses, type WithResponses } from '../core/api-promise.js';
import { SikarampError } from '../core/errors.js';
import { HttpCore, type ClientOptions } from '../core/http.js';
import { jwtExpiry, secretFingerprint, SLOW_FINGERPRINT_ROUNDS, TokenCache, type StoredToken, type TokenStore } from '../core/token-cache.js';
import { ApiKeys } from '../resources/merchant/api-keys.js';
import { Auth, type AccessToken } from '../resources/merchant/auth.js';
import { Kyb } from '../resources/merchant/kyb.js';
import { Orders } from '../resources/merchant/orders.js';
import { Profile } from '../resources/merchant/profile.js';
import { Webhook } from '../resources/merchant/webhook.js';
import { WidgetConfigs } from '../resources/merchant/widget-config.js';

/** Lifetime of a dashboard access token when the login answer does not say, seconds (000 section 8). */
const ACCESS_TOKEN_TTL_SECONDS = 24 * 60 * 60;

export interface MerchantClientOptions extends ClientOptions {
  /** The widget backend, `{base_url}`, e.g. `http://127.0.0.1:4010` for the mock server. */
  baseUrl: string;
  /** Dashboard e-mail: with `password`, the client logs in by itself and again before the token expires. */
  email?: string;
  password?: string;
  /** An access token you already hold; used until the service refuses it. */
  accessToken?: string;
  /** Where the login token is cached. Default: this process's memory. */
  tokenStore?: TokenStore;
  /** The clock the token cache reads, ms since the epoch. Default `Date.now`; tests pass the mock's clock. */
  now?: () => number;
}

/**
 * The merchant dashboard: account, API keys, KYB, widget config, webhook settings and
 * orders, authenticated with the login token (`Authorization: Bearer`).
 *
 * ```ts
 * const merchant = new MerchantClient({ baseUrl, email, password });
 * for await (const order of merchant.orders.list()) console.log(order.id, order.status);
 * ```
 */
export class MerchantClient {
  readonly auth: WithResponses<Auth>;
  readonly apiKeys: WithResponses<ApiKeys>;
  readonly profile: WithResponses<Profile>;
  readonly kyb: WithResponses<Kyb>;
  readonly widgetConfig: WithResponses<WidgetConfigs>;
  readonly webhook: WithResponses<Webhook>;
  readonly orders: WithResponses<Orders>;
  /** The login token cache, made on first use (its key needs the password's fingerprint). */
  readonly #tokens: (() => Promise<TokenCache>) | undefined;
  readonly #accessToken: string | undefined;

  constructor(options: MerchantClientOptions) {
    const { email, password, accessToken, tokenStore, now, ...rest } = options;
    if ((email === undefined) !== (password === undefined)) throw new SikarampError('Give both email and password, or neither');
    this.#accessToken = accessToken;
    const core = new HttpCore({
      ...rest,
      auth: {
        headers: async (signal) => ({ authorization: `Bearer ${await this.accessToken(signal)}` }),
        ...(email !== undefined ? { refresh: async (signal?: AbortSignal) => void (await (await this.#tokens!()).renew(signal)) } : {}),
      },
    });
    this.auth = withResponses(new Auth(core));
    if (email !== undefined && password !== undefined) {
      // The key names the password too (slowly hashed): with a store shared by several
      // merchants, an e-mail alone must not fetch that merchant's token.
      const scope = `sikaramp:merchant:${core.baseUrl}:${email.toLowerCase()}`;
      let cache: Promise<TokenCache> | undefined;
      this.#tokens = () =>
        (cache ??= secretFingerprint(scope, password, SLOW_FINGERPRINT_ROUNDS).then(
          (fingerprint) =>
            new TokenCache({
              store: tokenStore,
              key: `${scope}:${fingerprint}`,
              obtain: async (signal) => expiry(await this.auth.login({ email, password }, { signal }), now ?? Date.now),
              now,
            }),
          (error: unknown) => {
            cache = undefined;
            throw error;
          },
        ));
    }
    this.apiKeys = withResponses(new ApiKeys(core));
    this.profile = withResponses(new Profile(core));
    this.kyb = withResponses(new Kyb(core));
    this.widgetConfig = withResponses(new WidgetConfigs(core));
    this.webhook = withResponses(new Webhook(core));
    this.orders = withResponses(new Orders(core));
  }

  /** A valid access token: the cached one, or a fresh login when it is missing or expires within a minute. */
  async accessToken(signal?: AbortSignal): Promise<string> {
    if (this.#tokens) return (await this.#tokens()).get(signal);
    if (this.#accessToken !== undefined) return this.#accessToken;
    throw new SikarampError('MerchantClient needs email and password, or an accessToken, for dashboard calls');
  }
}

/** When a login token expires: `expires_at`, else `expires_in`, else the JWT's `exp`, else 24 hours. */
function expiry(login: AccessToken, now: () => number): StoredToken {
  const at = login.expires_at === undefined ? Number.NaN : Date.parse(login.expires_at);
  if (!Number.isNaN(at)) return { token: login.access_token, expiresAt: at };
  if (login.expires_in !== undefined) return { token: login.access_token, expiresAt: now() + login.expires_in * 1000 };
  const exp = jwtExpiry(login.access_token);
  return { token: login.access_token, expiresAt: exp ?? now() + ACCESS_TOKEN_TTL_SECONDS * 1000 };
}
