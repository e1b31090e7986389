/**
 * How the SDK uses zod: inputs strictly (an unknown or mistyped field is a ValidationError
 * and nothing is sent), answers leniently (`z.looseObject`, open enums: a field or a status
 * value the service adds later never breaks a merchant).
 */
import * as z from 'zod';
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
 * An enum that also accepts values it does not know yet, typed so that editors still
 * suggest the known ones: `'completed' | 'failed' | (string & {})`.
 */
export function openEnum<const T extends readonly [string, ...string[]]>(values: T) {
  return z.union([z.enum(values), z.string()]) as unknown as z.ZodType<T[number] | (string & {})>;
}

/** A non-empty string without surrounding blanks, at most `max` characters. */
export const text = (max = 200) => z.string().trim().min(1).max(max);

/** A path segment (id, reference): non-empty, no slash, so that it cannot reach another route. */
export const pathSegment = z.string().min(1).max(200).regex(/^[^/?#\s]+$/, 'must be a single path segment');
