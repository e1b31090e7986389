/**
 * Merchant accounts and API keys: what registration, key creation and KYB do to the store.
 * Handlers (handlers/merchant/*) and control calls both go through here.
 */
import { Keypair } from '@stellar/stellar-sdk';
import { isoNano } from './clock.js';
import type { MockContext } from './context.js';
import { hashPassword, rawSeed } from './crypto.js';
import { hashKey, KEY_PREFIX } from './http/auth.js';
import { kyb } from './machines/kyb.js';
import { setStatus } from './history.js';
import { moveRecord } from './machines/machine.js';
import type { ApiKeyRecord, MerchantRecord } from './store.js';

export interface RegisterInput {
  name: string;
  legal_name: string;
  email: string;
  password: string;
}

/** Registration defaults of 000 section 2: pending, starter tier, 100 + 0 bps, a real Stellar keypair. */
export async function createMerchant(ctx: MockContext, input: RegisterInput): Promise<MerchantRecord> {
  const now = isoNano(ctx.clock.now());
  const keypair = Keypair.fromRawEd25519Seed(rawSeed(ctx.secrets.bytes(32)));
  const merchant: MerchantRecord = {
    id: ctx.random.uuid(),
    name: input.name,
    legal_name: input.legal_name,
    email: input.email,
    password_hash: await hashPassword(input.password, ctx.secrets.bytes(16)),
    status: 'pending',
    tier: 'starter',
    fee_base_bps: 100,
    fee_markup_bps: 0,
    limits: { ...ctx.options.limits },
    current_month_volume: 0,
    daily_volume: {},
    stellar_public_key: keypair.publicKey(),
    stellar_secret: keypair.secret(),
    is_test_mode: false,
    created_at: now,
    updated_at: now,
    kyb: { status: 'not_submitted' },
    widget_config: {
      theme: { primary_color: '#0f766e', border_radius: '12px' },
      allowed_coins: ['USDC'],
      redirect_url: null,
    },
    webhook: { url: null, secret: null },
    ramp_enabled: false,
  };
  ctx.store.merchants.set(merchant.id, merchant);
  return merchant;
}

export const findMerchantByEmail = (ctx: MockContext, email: string) =>
  [...ctx.store.merchants.values()].find((m) => m.email.toLowerCase() === email.toLowerCase());

/** The merchant object as the API shows it: no password hash, no Stellar secret. */
export function merchantView(m: MerchantRecord) {
  return {
    id: m.id,
    name: m.name,
    legal_name: m.legal_name,
    email: m.email,
    status: m.status,
    tier: m.tier,
    fee_base_bps: m.fee_base_bps,
    fee_markup_bps: m.fee_markup_bps,
    monthly_volume_limit: m.limits.monthly,
    current_month_volume: m.current_month_volume,
    stellar_public_key: m.stellar_public_key,
    is_test_mode: m.is_test_mode,
    created_at: m.created_at,
    updated_at: m.updated_at,
  };
}

export interface CreateKeyInput {
  key_type: 'public' | 'secret';
  domains?: string[];
  allowed_ips?: string[];
  permissions?: string[];
  rate_limit_rpm?: number;
}

/** Creates a key; the full text is returned here once and only its SHA-256 is kept. */
export async function createApiKey(
  ctx: MockContext,
  merchant: MerchantRecord,
  input: CreateKeyInput,
): Promise<{ apiKey: ApiKeyRecord; key: string }> {
  const key = `${KEY_PREFIX[input.key_type]}${ctx.secrets.hex(24)}`;
  const apiKey: ApiKeyRecord = {
    id: ctx.random.uuid(),
    merchant_id: merchant.id,
    key_type: input.key_type,
    key_prefix: key.slice(0, KEY_PREFIX[input.key_type].length + 6),
    key_hash: await hashKey(key),
    allowed_domains: input.domains ?? [],
    allowed_ips: input.allowed_ips ?? [],
    permissions: input.permissions ?? ['onramp', 'offramp'],
    rate_limit_rpm: input.rate_limit_rpm ?? 600,
    is_active: true,
    created_at: isoNano(ctx.clock.now()),
  };
  ctx.store.apiKeys.set(apiKey.id, apiKey);
  return { apiKey, key };
}

/** The API key object as the API shows it: no hash. */
export function apiKeyView(k: ApiKeyRecord) {
  const { key_hash: _hash, revoked_at: _revoked, ...view } = k;
  return view;
}

export type KybSubmission = NonNullable<MerchantRecord['kyb']['submission']>;

/** Submits business verification documents; refused (409) while under review or once approved. */
export function submitKyb(ctx: MockContext, merchant: MerchantRecord, submission: KybSubmission) {
  const status = moveRecord(kyb, merchant.kyb, 'submit', ctx.clock.now(), { record: merchant, field: 'kyb' });
  const now = isoNano(ctx.clock.now());
  // A new review: the previous one's outcome goes.
  merchant.kyb = { status, submitted_at: now, submission };
  merchant.updated_at = now;
}

/** KYB review outcome; approval makes the merchant active (design.md section 4). Refused (409) where machines/kyb.ts has no row. */
export function reviewKyb(ctx: MockContext, merchant: MerchantRecord, approved: boolean, reason?: string) {
  moveRecord(kyb, merchant.kyb, approved ? 'approve' : 'reject', ctx.clock.now(), { record: merchant, field: 'kyb' });
  const now = isoNano(ctx.clock.now());
  merchant.kyb.reviewed_at = now;
  if (approved) delete merchant.kyb.rejection_reason;
  else merchant.kyb.rejection_reason = reason ?? 'documents could not be verified';
  if (approved) setStatus(merchant, 'active', 'kyb_approved', ctx.clock.now());
  merchant.updated_at = now;
}

/** The KYB status as `GET /api/v1/merchant/kyb/status` shows it. */
export function kybView(m: MerchantRecord) {
  return {
    status: m.kyb.status,
    submitted_at: m.kyb.submitted_at ?? null,
    reviewed_at: m.kyb.reviewed_at ?? null,
    rejection_reason: m.kyb.rejection_reason ?? null,
    registration_number: m.kyb.submission?.registration_number ?? null,
    country: m.kyb.submission?.country ?? null,
    documents: m.kyb.submission?.documents ?? [],
  };
}

/** After a rotation the previous webhook secret stays valid this long, seconds (design.md section 4). */
export const WEBHOOK_SECRET_GRACE_SECONDS = 24 * 60 * 60;

/**
 * The secrets a webhook signature may be made with now: the current one and, for 24 h after
 * a rotation, the previous one. Empty until a webhook URL has been set.
 */
export function webhookSecrets(ctx: MockContext, m: MerchantRecord): { current: string | null; previous: string | null } {
  const { secret, previous_secret, previous_expires_at } = m.webhook;
  const previousValid = previous_secret !== undefined && previous_expires_at !== undefined && previous_expires_at > ctx.clock.now();
  return { current: secret, previous: previousValid ? previous_secret : null };
}

/** The widget config as `GET /api/v1/widget/config` and the dashboard show it (000 section 2). */
export function widgetConfigView(m: MerchantRecord) {
  return {
    merchant_id: m.id,
    theme: { ...m.widget_config.theme },
    allowed_coins: [...m.widget_config.allowed_coins],
    redirect_url: m.widget_config.redirect_url,
  };
}
