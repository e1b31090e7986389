import type { MockContext } from '../../context.js';
import { findKey, findSession } from '../../http/auth.js';
import { readJsonObject } from '../../http/body.js';
import { badRequest, forbidden } from '../../http/errors.js';
import type { ApiKeyRecord, MerchantRecord, SessionRecord } from '../../store.js';

/**
 * Reads the request body as SEP servers do: JSON, `application/x-www-form-urlencoded` or
 * `multipart/form-data` (what SEP-10, SEP-12 and SEP-24 client libraries send). Form values
 * are strings; uploaded files are ignored. An empty body is `{}`.
 */
export async function readFields(request: Request): Promise<Record<string, unknown>> {
  const type = (request.headers.get('content-type') ?? '').toLowerCase();
  if (type.startsWith('multipart/form-data') || type.startsWith('application/x-www-form-urlencoded')) {
    let form: FormData;
    try {
      form = await request.formData();
    } catch {
      throw badRequest('request body is not valid form data');
    }
    const fields: Record<string, unknown> = {};
    for (const [name, value] of form) if (typeof value === 'string') fields[name] = value;
    return fields;
  }
  if (type === '' || type.includes('json')) {
    const text = await request.clone().text();
    if (text.trim() === '') return {};
    return readJsonObject(request);
  }
  throw badRequest(`unsupported content type ${type.split(';')[0]}; send JSON, form-urlencoded or multipart`);
}

/** The merchant fields of 000 section 4, sent as extra fields on SEP-12 and SEP-24 requests. */
export const MERCHANT_FIELDS = ['merchant_id', 'session_id', 'session_token', 'api_key', 'user_id'] as const;

/** Who a request with valid merchant fields is for. */
export interface MerchantAuth {
  merchant: MerchantRecord;
  /** The public key of `api_key`. */
  key: ApiKeyRecord;
  /** The live session of `session_id` + `session_token`; its `user_id` is the request's. */
  session: SessionRecord;
}

const fieldText = (fields: Record<string, unknown>, name: string) => {
  const value = fields[name];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
};

/**
 * Reads the merchant fields of a SEP-12 or SEP-24 request. None of merchant_id, session_id,
 * session_token and api_key: undefined (the request is for no merchant; a lone `user_id` is
 * the caller's business). Otherwise all five must be given and agree, the only way a request
 * acts for a merchant: `api_key` an active public key of `merchant_id`, the session live and
 * that merchant's, `user_id` the session's customer. Refusals: 400 for missing fields, 401 for
 * a wrong or expired session, 403 for fields that do not agree.
 */
export async function readMerchantFields(ctx: MockContext, fields: Record<string, unknown>): Promise<MerchantAuth | undefined> {
  const value = Object.fromEntries(MERCHANT_FIELDS.map((name) => [name, fieldText(fields, name)])) as Record<(typeof MERCHANT_FIELDS)[number], string | undefined>;
  if (!value.merchant_id && !value.session_id && !value.session_token && !value.api_key) return undefined;
  const missing = MERCHANT_FIELDS.filter((name) => !value[name]);
  if (missing.length > 0) throw badRequest(`${missing.join(', ')}: required with the other merchant fields (send all five, or none)`);
  const merchant = ctx.store.merchants.get(value.merchant_id!);
  if (!merchant) throw forbidden('merchant_id: unknown merchant');
  const auth = await findKey(ctx, value.api_key!);
  if (!auth || auth.key.key_type !== 'public') throw forbidden('api_key: not an active public key');
  if (auth.merchant.id !== merchant.id) throw forbidden('api_key: belongs to another merchant');
  const session = findSession(ctx, value.session_id!, value.session_token!);
  if (session.merchant_id !== merchant.id) throw forbidden('session_id: belongs to another merchant');
  if (value.user_id !== session.user_id) throw forbidden("user_id: not the session's customer");
  return { merchant, key: auth.key, session };
}
