/**
 * Checkout keys (002 section 5): `Authorization: Bearer <CHECKOUT_API_KEY>`, looked up by
 * SHA-256 (the key text is shown once and never stored). The checkout routes refuse a key
 * issued before they existed until it is rotated once; the earlier gateway routes take it.
 */
import { iso } from '../../clock.js';
import type { MockContext } from '../../context.js';
import { bearer, clientIp, hashKey } from '../../http/auth.js';
import type { CheckoutKeyRecord, CheckoutOrganization } from '../../state/checkout.js';
import { findBy, keyHash } from '../../state/indexed-map.js';
import { checkoutError } from './errors.js';

export const CHECKOUT_KEY_PREFIX = 'sika_checkout_';

/** The 401 text for a key that predates the checkout route (002 section 5, rule 1). */
export const ROTATION_MESSAGE = 'invalid API key; existing keys must be rotated once before using this endpoint';

export interface IssueKeyInput {
  /** Null issues a key linked to no organization. */
  organizationId: string | null;
  userId: string;
  legacy?: boolean;
  environment?: 'test' | 'live';
  allowedIps?: string[];
}

/** Issues a key and returns its text, the only time the text exists. */
export async function issueCheckoutKey(ctx: MockContext, input: IssueKeyInput): Promise<{ key: string; record: CheckoutKeyRecord }> {
  const key = `${CHECKOUT_KEY_PREFIX}${ctx.secrets.hex(24)}`;
  const record: CheckoutKeyRecord = {
    id: `ck_${ctx.random.hex(8)}`,
    organization_id: input.organizationId,
    user_id: input.userId,
    key_prefix: key.slice(0, CHECKOUT_KEY_PREFIX.length + 6),
    key_hash: await hashKey(key),
    legacy: input.legacy ?? false,
    environment: input.environment ?? 'test',
    allowed_ips: input.allowedIps ?? [],
    is_active: true,
    created_at: iso(ctx.clock.now()),
  };
  ctx.store.checkout.keys.set(record.id, record);
  return { key, record };
}

/** The active key with this text, or undefined. */
export async function findCheckoutKey(ctx: MockContext, text: string): Promise<CheckoutKeyRecord | undefined> {
  const record = findBy(ctx.store.checkout.keys, keyHash, await hashKey(text));
  return record?.is_active ? record : undefined;
}

export interface CheckoutAuth {
  key: CheckoutKeyRecord;
  organization: CheckoutOrganization;
}

/**
 * Authenticates a call to a checkout route, in the order of 002 section 7: 401 (missing,
 * unknown or inactive, predating the route, not linked to an organization), 403 (caller
 * outside the key's IP allowlist), 400 (organization not active).
 */
export async function requireCheckoutKey(ctx: MockContext, request: Request): Promise<CheckoutAuth> {
  const key = await requireActiveKey(ctx, request);
  if (key.legacy) throw checkoutError(401, ROTATION_MESSAGE);
  const organization = key.organization_id ? ctx.store.checkout.organizations.get(key.organization_id) : undefined;
  if (!organization) throw checkoutError(401, 'invalid API key: not linked to an organization');
  if (key.allowed_ips.length > 0 && !key.allowed_ips.includes(clientIp(ctx, request))) {
    throw checkoutError(403, 'caller IP address is not allowed for this API key');
  }
  if (organization.status !== 'active') throw checkoutError(400, 'organization is not active');
  return { key, organization };
}

/** Authenticates a call to an earlier gateway route: any active checkout key, legacy ones included. */
export async function requireGatewayKey(ctx: MockContext, request: Request): Promise<CheckoutKeyRecord> {
  return requireActiveKey(ctx, request);
}

async function requireActiveKey(ctx: MockContext, request: Request): Promise<CheckoutKeyRecord> {
  const text = bearer(request);
  if (!text) throw checkoutError(401, 'missing API key: send Authorization: Bearer <CHECKOUT_API_KEY>');
  const key = await findCheckoutKey(ctx, text);
  if (!key) throw checkoutError(401, 'invalid API key');
  return key;
}
