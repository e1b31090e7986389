import * as z from 'zod';
import type { RequestOptions } from '../../core/http.js';
import { Resource } from '../../core/resource.js';
import { httpUrl, MAX_FIAT_AMOUNT, MAX_STELLAR_AMOUNT, openEnum, parseInput, responseObject, text } from '../../core/schema.js';

const publicKey = z.string().max(200).regex(/_public_[A-Za-z0-9]+$/, 'must be the public key (xx_public_…), never the secret key');
const stellarAddress = z.string().regex(/^G[A-Z2-7]{55}$/, 'must be a Stellar public address (G…)');

const common = {
  /** Always `USDC`; the default. */
  asset_code: z.literal('USDC').default('USDC'),
  /** The customer's id; the customer must be ACCEPTED. */
  user_id: text(100),
  /** The merchant's public key; the client's `publicKey` when left out. */
  api_key: publicKey,
  /** Language of the interactive page, a language code such as `en` or `fr-GH`; `en` when left out. */
  lang: z.string().regex(/^[a-z]{2}(-[A-Za-z]{2})?$/, 'must be a language code such as en or fr-GH').optional(),
};

export const DepositParamsSchema = z.strictObject({
  ...common,
  /** GHS to spend; the customer enters it when left out. */
  fiat_amount: z.number().positive().max(MAX_FIAT_AMOUNT).optional(),
  /** Stellar address that receives the USDC; the customer enters it when left out. */
  destination_address: stellarAddress.optional(),
});
export type DepositParams = Omit<z.input<typeof DepositParamsSchema>, 'api_key'> & { api_key?: string };

export const WithdrawParamsSchema = z.strictObject({
  ...common,
  /** USDC to sell; the customer enters it when left out. */
  onchain_amount: z.number().positive().max(MAX_STELLAR_AMOUNT).optional(),
});
export type WithdrawParams = Omit<z.input<typeof WithdrawParamsSchema>, 'api_key'> & { api_key?: string };

/** The interactive flow to open in an iframe, popup or redirect; the anchor's SEP-24 answers share it. */
export const InteractiveTransactionSchema = responseObject({
  /** Interactive page address, with its token: always http(s); any other scheme is a ResponseValidationError. */
  url: httpUrl,
  /** Transaction id, for lookups and the order list. */
  id: z.string(),
  /** `interactive_customer_info_needed`. */
  type: openEnum(['interactive_customer_info_needed']),
});
export type InteractiveTransaction = z.infer<typeof InteractiveTransactionSchema>;

/** `POST /api/v1/widget/deposit/interactive` and `/withdraw/interactive`. */
export class Interactive extends Resource {
  readonly #publicKey: string | undefined;

  constructor(core: ConstructorParameters<typeof Resource>[0], publicKey: string | undefined) {
    super(core);
    this.#publicKey = publicKey;
  }

  /** Buy USDC: the URL of the interactive deposit flow for an ACCEPTED customer. */
  async deposit(params: DepositParams, opts?: RequestOptions): Promise<InteractiveTransaction> {
    return this.core.post('api/v1/widget/deposit/interactive', {
      ...opts,
      body: parseInput(DepositParamsSchema, this.#withKey(params)),
      schema: InteractiveTransactionSchema,
    });
  }

  /** Sell USDC: the URL of the interactive withdraw flow for an ACCEPTED customer. */
  async withdraw(params: WithdrawParams, opts?: RequestOptions): Promise<InteractiveTransaction> {
    return this.core.post('api/v1/widget/withdraw/interactive', {
      ...opts,
      body: parseInput(WithdrawParamsSchema, this.#withKey(params)),
      schema: InteractiveTransactionSchema,
    });
  }

  #withKey<P extends { api_key?: string }>(params: P): P {
    // Anything but an object is left for the schema to refuse.
    if (typeof params !== 'object' || params === null) return params;
    return params.api_key === undefined && this.#publicKey !== undefined ? { ...params, api_key: this.#publicKey } : params;
  }
}
