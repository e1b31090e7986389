/**
 * How the SDK uses zod: inputs strictly (an unknown or mistyped field is a ValidationError
 * and nothing is sent), answers leniently (`responseObject`, open enums: a field or a status
 * value the service adds later never breaks a merchant).
 */
import * as z from 'zod';
import { STELLAR_AMOUNT_PATTERN } from './amount.js';
import { ResponseValidationError, ValidationError, type ValidationIssue } from './errors.js';

/** Validates an input before it is sent; throws ValidationError naming every problem. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, what = 'input'): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new ValidationError(issuesOf(result.error), what);
}

/** Validates a 2xx answer against a lenient schema; throws ResponseValidationError when a known field is unusable. */
export function parseResponse<S extends z.ZodType>(schema: S, value: unknown, body: unknown, headers: Headers): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new ResponseValidationError(issuesOf(result.error), body, headers);
}

function issuesOf(error: z.ZodError): ValidationIssue[] {
  return error.issues.map(({ path, message, code }) => ({ path, message, code }));
}

/**
 * An answer object: read leniently at run time (fields the service adds later are kept, never
 * an error) but typed with only the fields it names, without `z.looseObject`'s index
 * signature, so that a misspelt field (`order.refrence`) is a compile error.
 */
export function responseObject<const Shape extends z.ZodRawShape>(shape: Shape) {
  return z.looseObject(shape) as unknown as ReturnType<typeof z.object<Shape>>;
}

/**
 * An enum that also accepts values it does not know yet, typed so that editors still
 * suggest the known ones: `'completed' | 'failed' | (string & {})`.
 */
export function openEnum<const T extends readonly [string, ...string[]]>(values: T) {
  return z.union([z.enum(values), z.string()]) as unknown as z.ZodType<T[number] | (string & {})>;
}

/** A non-empty string without surrounding blanks, at most `max` characters. */
export const text = (max = 200) => z.string().trim().min(1).max(max);

/**
 * A path segment (id, reference): non-empty, no slash, not `.` or `..` (which URL parsing
 * resolves away), whole UTF-16 characters only, so that it cannot reach another route.
 */
export const pathSegment = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[^/?#\s\uD800-\uDFFF]+$/u, 'must be a single path segment')
  .refine((s) => s !== '.' && s !== '..', 'must be a single path segment');

/**
 * A value sent in a header exactly as given: printable ASCII without surrounding blanks
 * (fetch trims blanks and refuses control and non-Latin-1 characters), at most `max` characters.
 */
export const headerValue = (max: number) =>
  z
    .string()
    .min(1)
    .max(max, `must be at most ${max} characters`)
    .regex(/^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/, 'must be printable ASCII without surrounding blanks, as it is sent in a header');

/**
 * An absolute `http:` or `https:` URL, for an address the merchant opens or sends a customer
 * to (an interactive page): `javascript:`, `data:`, `blob:` and the like are refused, so an
 * answer cannot make the page run script.
 */
export const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http or https URL' });

/** Largest GHS amount whose pesewas are still an exact number: 2^53 - 1 hundredths. */
export const MAX_FIAT_AMOUNT = Number.MAX_SAFE_INTEGER / 100;
/** Largest amount of an asset on Stellar (int64 stroops of 10^-7), e.g. USDC. */
export const MAX_STELLAR_AMOUNT = 922_337_203_685.477_580_7;

/**
 * A Stellar amount as the anchor takes it (SEP-24 and SEP-38): a decimal string with at most 7
 * places; a number must also read as one once written out (no `1e-7`, no `0.30000000000000004`).
 */
export const stellarAmount = z
  .union([z.number().positive(), z.string()])
  .transform(String)
  .pipe(
    z
      .string()
      .regex(STELLAR_AMOUNT_PATTERN, 'must be a decimal amount with at most 7 decimal places')
      .refine((s) => Number(s) > 0 && Number(s) <= MAX_STELLAR_AMOUNT, `must be more than 0 and at most ${MAX_STELLAR_AMOUNT}`),
  );
