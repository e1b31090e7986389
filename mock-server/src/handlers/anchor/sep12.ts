/**
 * SEP-12 customers at `{anchor_url}/customer`: the very records of the widget backend's
 * `/api/v1/widget/customer` (one store, one id).
 *
 * Who reaches a customer (docs/choices.md, "customer ownership"): the SEP-10 client (account,
 * and memo) that created it here; or a merchant's backend, when the request carries that
 * merchant's five merchant fields (query parameters for GET and DELETE, body fields for PUT)
 * with a session opened for this very customer. Anything else is 404, as for an unknown id.
 */
import { StrKey } from '@stellar/stellar-sdk';
import { http, HttpResponse } from 'msw';
import type { MockContext } from '../../context.js';
import {
  CUSTOMER_FIELDS,
  CustomerInputSchema,
  customerView,
  CustomerUpdateSchema,
  deleteCustomer,
  updateCustomer,
  upsertCustomer,
} from '../../customers.js';
import { parse } from '../../http/body.js';
import { badRequest, HttpError, notFound } from '../../http/errors.js';
import { checkOtp, sendOtp } from '../../otp.js';
import { route } from '../../http/respond.js';
import type { CustomerRecord } from '../../store.js';
import { isStellarAccount } from '../../transactions/accounts.js';
import { readFields, readMerchantFields, type MerchantAuth } from './fields.js';
import { requireSep10, type Sep10Client } from './sep10.js';

/** Fields a customer not yet registered must send (SEP-12: NEEDS_INFO for an unknown customer). */
const REQUIRED_FIELDS = (['first_name', 'last_name', 'email_address'] as const).map((f) => [f, { ...CUSTOMER_FIELDS[f] }] as const);

/** The 64-bit id a muxed (`M…`) account carries. */
const muxedId = (account: string) => StrKey.decodeMed25519PublicKey(account).subarray(32).reduce((n, b) => (n << 8n) | BigInt(b), 0n).toString();

/**
 * The customer a SEP-12 request speaks of, as SEP-12 names it: the token's `sub`, refined by a
 * `memo` when the token has none (a shared account's user). A deprecated `account` must be the
 * token's account; a `memo` must match the token's memo (or its muxed id); only id memos exist
 * here. Each disagreement is 400.
 */
export function customerSubject(client: Sep10Client, fields: Record<string, unknown>): string {
  const { account, memo, memo_type: memoType } = fields;
  if (account !== undefined && account !== '' && account !== client.account) throw badRequest("account: does not match the SEP-10 token's account");
  if (memo === undefined || memo === '') return client.sub;
  const tokenMemo = client.memo ?? (client.account.startsWith('M') ? muxedId(client.account) : null);
  // SEP-12: with a memo in the token, `memo_type` "can be ignored"; without, only id memos name users here.
  if (tokenMemo === null && memoType !== undefined && memoType !== '' && memoType !== 'id') throw badRequest('memo_type: only id memos are supported');
  if (typeof memo !== 'string' || !/^[1-9]\d{0,19}$/.test(memo) || BigInt(memo) >= 2n ** 64n) throw badRequest('memo: must be an id memo (a positive 64-bit integer)');
  if (tokenMemo !== null) {
    if (memo !== tokenMemo) throw badRequest("memo: does not match the memo of the SEP-10 token");
    return client.sub;
  }
  return `${client.account}:${memo}`;
}

/** What a code texted for SEP-12 verification proves: this number, for this customer. */
const phonePurpose = (customer: CustomerRecord, phone: string) => `sep12:${customer.id}:${phone}`;

/**
 * SEP-12 verification: the `*_verification` fields of a request. Only a mobile number needs
 * one here (its provided field is VERIFICATION_REQUIRED until then): the code texted to it when
 * it was given. Anything else, a wrong, used or expired code, or no number awaiting one is 400
 * and changes nothing. Returns whether the number was verified.
 */
function applyVerification(ctx: MockContext, customer: CustomerRecord, fields: Record<string, unknown>): boolean {
  for (const name of Object.keys(fields)) {
    if (name.endsWith('_verification') && name !== 'mobile_number_verification') {
      throw badRequest(`${name}: ${name.slice(0, -'_verification'.length)} needs no verification here`);
    }
  }
  const code = fields.mobile_number_verification;
  if (code === undefined) return false;
  const phone = customer.fields.mobile_number;
  if (!phone || customer.verified_phones.includes(phone)) throw badRequest('mobile_number_verification: no mobile number of this customer awaits verification');
  if (typeof code !== 'string' || !/^\d{6}$/.test(code.trim())) throw badRequest('mobile_number_verification: the 6-digit code texted to the number');
  try {
    checkOtp(ctx, phonePurpose(customer, phone), code.trim());
  } catch (error) {
    // SEP-12: a client error is 400; checkOtp's 422 is the ramp API's.
    if (error instanceof HttpError && error.status === 422) throw badRequest(`mobile_number_verification: ${error.message}`);
    throw error;
  }
  customer.verified_phones.push(phone);
  return true;
}

/** Texts a code to the customer's mobile number when the request gave one that is not verified yet (a new code replaces the last). */
function textPhoneCode(ctx: MockContext, customer: CustomerRecord, fields: Record<string, unknown>) {
  const phone = customer.fields.mobile_number;
  if (fields.mobile_number !== undefined && phone && !customer.verified_phones.includes(phone)) sendOtp(ctx, phone, phonePurpose(customer, phone));
}

/** GET /customer's answer: the customer lookup of 000, plus the `message` SEP-12 requires of a REJECTED customer. */
function sep12View(customer: CustomerRecord) {
  const view = customerView(customer);
  return customer.status === 'REJECTED' ? { ...view, message: 'The customer was rejected by compliance review and cannot transact.' } : view;
}

/** The customer `id` if this request may reach it (see the module comment); 404 otherwise. */
function reachableCustomer(ctx: MockContext, subject: string, merchant: MerchantAuth | undefined, id: string): CustomerRecord {
  const customer = ctx.store.customers.get(id);
  if (customer?.account === subject) return customer;
  if (customer && merchant && customer.merchant_id === merchant.merchant.id && merchant.session.user_id === customer.id) return customer;
  throw notFound('customer');
}

/**
 * `PUT /customer` (202 `{id}`; with `id` it adds or changes fields; new customers belong to the
 * merchant of the merchant fields, else to no merchant), `GET /customer?id=` (without `id`: the
 * session's customer with merchant fields, else the account's newest, else NEEDS_INFO with the
 * required fields), `DELETE /customer/{id}` and SEP-12's `DELETE /customer/{account}` (200
 * `{message}`; the ids are unusable afterwards), and SEP-12 verification of a mobile number
 * (`mobile_number_verification` on PUT /customer or the deprecated PUT /customer/verification).
 */
export function sep12Handlers(ctx: MockContext) {
  const base = `${ctx.urls.anchor}/customer`;
  /** The client, the customer subject and the merchant fields of a request whose fields are `fields`. */
  const caller = async (request: Request, fields: Record<string, unknown>) => {
    const client = await requireSep10(ctx, request);
    const subject = customerSubject(client, fields);
    return { client, subject, merchant: await readMerchantFields(ctx, fields) };
  };
  const query = (request: Request) => Object.fromEntries(new URL(request.url).searchParams) as Record<string, unknown>;
  return [
    http.put(
      base,
      route(ctx, 'sep', async ({ request }) => {
        const fields = await readFields(request);
        const { subject, merchant } = await caller(request, fields);
        if (typeof fields.id === 'string' && fields.id !== '') {
          const customer = reachableCustomer(ctx, subject, merchant, fields.id);
          const update = parse(CustomerUpdateSchema, fields);
          // The code proves the number it was texted to: checked before the fields change.
          applyVerification(ctx, customer, fields);
          updateCustomer(ctx, customer, update);
          textPhoneCode(ctx, customer, fields);
          return HttpResponse.json({ id: customer.id }, { status: 202 });
        }
        const input = parse(CustomerInputSchema, fields);
        if (Object.keys(fields).some((name) => name.endsWith('_verification'))) throw badRequest('id: send a verification code with the customer’s id');
        const { customer } = merchant ? upsertCustomer(ctx, merchant.merchant.id, input, subject) : upsertCustomer(ctx, null, input, subject);
        textPhoneCode(ctx, customer, fields);
        return HttpResponse.json({ id: customer.id }, { status: 202 });
      }),
    ),
    // SEP-12's deprecated PUT /customer/verification: `id` and `*_verification` fields; 200 with the customer as GET answers it.
    http.put(
      `${base}/verification`,
      route(ctx, 'sep', async ({ request }) => {
        const fields = await readFields(request);
        const { subject, merchant } = await caller(request, fields);
        if (typeof fields.id !== 'string' || fields.id === '') throw badRequest('id: the customer to verify is required');
        const customer = reachableCustomer(ctx, subject, merchant, fields.id);
        if (!applyVerification(ctx, customer, fields)) throw badRequest('mobile_number_verification: the code to verify is required');
        return HttpResponse.json(sep12View(customer));
      }),
    ),
    http.get(
      base,
      route(ctx, 'sep', async ({ request }) => {
        const fields = query(request);
        const { subject, merchant } = await caller(request, fields);
        const id = typeof fields.id === 'string' && fields.id !== '' ? fields.id : merchant?.session.user_id;
        if (id) return HttpResponse.json(sep12View(reachableCustomer(ctx, subject, merchant, id)));
        const newest = [...ctx.store.customers.values()].filter((c) => c.account === subject).at(-1);
        if (newest) return HttpResponse.json(sep12View(newest));
        return HttpResponse.json({ status: 'NEEDS_INFO', fields: Object.fromEntries(REQUIRED_FIELDS) });
      }),
    ),
    http.delete(
      `${base}/:id`,
      route(ctx, 'sep', async ({ request, params }) => {
        const target = String(params.id);
        const fields = { ...(await readFields(request)), ...query(request) };
        // SEP-12 lists 401 for a DELETE whose client is not authenticated properly (its other endpoints follow SEP-24's 403).
        const { client, subject, merchant } = await caller(request, fields).catch((error: unknown) => {
          if (error instanceof HttpError && error.code === 'AUTHENTICATION_REQUIRED') throw new HttpError(401, error.code, error.message);
          throw error;
        });
        if (isStellarAccount(target)) {
          // SEP-12: every record the account (with the memo, for a shared account) created here.
          if (target !== client.account) throw notFound('customer');
          const mine = [...ctx.store.customers.values()].filter((c) => c.account === subject);
          if (mine.length === 0) throw notFound('customer');
          for (const customer of mine) deleteCustomer(ctx, customer);
          return HttpResponse.json({ message: `customer data of ${target} deleted` });
        }
        const customer = reachableCustomer(ctx, subject, merchant, target);
        deleteCustomer(ctx, customer);
        return HttpResponse.json({ message: `customer ${customer.id} deleted` });
      }),
    ),
  ];
}
