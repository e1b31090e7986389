/** The customer finishing the form: the phone checked by OTP, then the completion that fixes the price. */
import { iso } from '../clock.js';
import type { MockContext } from '../context.js';
import { setStatus } from '../history.js';
import { badRequest, HttpError } from '../http/errors.js';
import { parseProvider, PROVIDERS } from '../mobile-money.js';
import { checkOtp, sendOtp } from '../otp.js';
import type { TransactionRecord } from '../state/anchor.js';
import { checkLimits } from '../volume.js';
import { isStellarAccount } from './accounts.js';
import { checkAmount, checkPhone, limitTerms, priceFor } from './create.js';
import { promptForCedis } from './deposit.js';
import { next, recordOrder } from './orders.js';
import { awaitUsdc } from './withdraw.js';

/**
 * Sends a one-time password to `phone` for this transaction (readable in test mode through
 * `GET /_mock/otp?phone=`). Only while the form is open (409 INVALID_STATE otherwise); a
 * phone not written as `+` and 7–15 digits is 400 VALIDATION_ERROR.
 */
export function sendInteractiveOtp(ctx: MockContext, tx: TransactionRecord, phone: string): { phone: string; expires_at: string } {
  next(tx, 'complete_form');
  const number = checkPhone(phone);
  const otp = sendOtp(ctx, number, otpPurpose(tx));
  return { phone: otp.phone, expires_at: iso(otp.expires_at) };
}

/**
 * Checks the code sent by {@link sendInteractiveOtp} and remembers the phone as verified
 * (for this transaction, and on the customer's record). A wrong, expired or used code is 422
 * VALIDATION_ERROR; a code sent to another number 422 PHONE_NOT_VERIFIED.
 */
export function verifyInteractivePhone(ctx: MockContext, tx: TransactionRecord, phone: string, code: string): TransactionRecord {
  next(tx, 'complete_form');
  const number = checkPhone(phone);
  const otp = checkOtp(ctx, otpPurpose(tx), code);
  if (otp.phone !== number) throw new HttpError(422, 'PHONE_NOT_VERIFIED', 'the code was sent to another number');
  tx.verified_phone = number;
  const customer = tx.customer_id ? ctx.store.customers.get(tx.customer_id) : undefined;
  if (customer && !customer.verified_phones.includes(number)) customer.verified_phones.push(number);
  return tx;
}

export interface CompleteInteractiveInput {
  /** A provider id (`mtn`, `telecel`, `airteltigo`) or its display name. */
  provider: string;
  /** The Mobile Money number, `+` and country code. */
  phone: string;
  /** The code sent to `phone`; not needed when the phone was verified before. */
  otp_code?: string;
  /** GHS for a deposit, USDC for a withdrawal; default: the amount of the request. */
  amount?: number;
  /** Deposit: the Stellar account to receive the USDC; default: the one of the request. */
  destination_address?: string;
}

/**
 * Checks a finished form without changing anything: the transition, provider, phone, amount,
 * destination, the customer's KYC and the limits. Throws the error the customer would see.
 */
export function checkCompletion(ctx: MockContext, tx: TransactionRecord, input: Omit<CompleteInteractiveInput, 'otp_code'>) {
  const provider = parseProvider(input.provider ?? '');
  if (!provider) throw badRequest(`provider: must be one of ${Object.keys(PROVIDERS).join(', ')}`);
  const phone = checkPhone(input.phone);
  const amountValue = input.amount ?? tx.requested_amount;
  if (amountValue === null || amountValue === undefined) throw badRequest('amount: is required');
  const amount = checkAmount(amountValue);
  let destination: string | null = null;
  if (tx.kind === 'deposit') {
    destination = input.destination_address?.trim() || tx.destination_address;
    if (!destination) throw badRequest('destination_address: is required');
    if (!isStellarAccount(destination)) throw badRequest('destination_address: must be a Stellar account (G… or M…)');
  }
  // The input is judged first (400), whatever the state: the same bad request always gets the same answer.
  const status = next(tx, 'complete_form');
  const customer = tx.customer_id ? ctx.store.customers.get(tx.customer_id) : undefined;
  if (tx.customer_id && customer?.status !== 'ACCEPTED') {
    throw new HttpError(403, 'KYC_NOT_APPROVED', `customer KYC status is ${customer?.status ?? 'deleted'}, not ACCEPTED`);
  }
  const quote = priceFor(ctx, tx, amount);
  checkLimits(ctx, limitTerms(ctx, tx), { fiat: quote.fiat_amount, crypto: quote.crypto_amount });
  return { status, provider, phone, destination, customer, quote };
}

/**
 * Finishes the form as the customer does on the page: checks the phone (the OTP when given,
 * else an earlier verification), the customer's KYC, the amount against the limits, fixes
 * the price, and moves `incomplete` -> `pending_user_transfer_start`. A deposit then sends
 * the Mobile Money prompt; a withdrawal shows `withdraw_anchor_account` and `withdraw_memo`.
 * A merchant's transaction gets its `ord_` order here. The token is used from now on: it
 * opens the status, no longer the form.
 *
 * Refusals change nothing: 409 INVALID_STATE (not `incomplete`), 400 VALIDATION_ERROR
 * (provider, phone, amount, address), 403 KYC_NOT_APPROVED, 422 AMOUNT_OUT_OF_RANGE,
 * 422 PHONE_NOT_VERIFIED, 422 VALIDATION_ERROR (wrong code).
 */
export async function completeInteractive(
  ctx: MockContext,
  tx: TransactionRecord,
  input: CompleteInteractiveInput,
): Promise<TransactionRecord> {
  const { status, provider, phone, destination, customer, quote } = checkCompletion(ctx, tx, input);
  if (input.otp_code !== undefined) {
    verifyInteractivePhone(ctx, tx, phone, input.otp_code);
  } else if (tx.verified_phone !== phone && !customer?.verified_phones.includes(phone)) {
    throw new HttpError(422, 'PHONE_NOT_VERIFIED', 'phone number not OTP-verified; send a code and enter it');
  }

  const now = ctx.clock.now();
  setStatus(tx, status, 'complete_form', now); // the table allowed it in checkCompletion
  tx.updated_at = now;
  tx.quote = quote;
  tx.provider = provider;
  tx.phone = phone;
  tx.destination_address = destination;
  // The link stays known (its hash): from now on it opens the status, never the form (handlers/interactive).
  tx.token_hash = null;
  recordOrder(ctx, tx);

  if (tx.kind === 'deposit') promptForCedis(ctx, tx, provider, phone, quote.fiat_amount);
  else awaitUsdc(ctx, tx, now);
  return tx;
}

const otpPurpose = (tx: TransactionRecord) => `interactive:${tx.id}`;
