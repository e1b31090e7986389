import * as z from 'zod';

const DECIMAL = /^\s*-?\d+(?:\.\d+)?\s*$/;

/** `value` with every decimal string in it (at any depth) as a number. */
function numbers(value: unknown): unknown {
  if (typeof value === 'string') return DECIMAL.test(value) ? Number(value) : value;
  if (Array.isArray(value)) return value.map(numbers);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, numbers(v)]));
  return value;
}

/**
 * Reads an answer of the ramp API with `schema`, holding the service only to what 001 shows.
 * 001 names few fields of its answers (the order's `reference` and the fields of its section
 * 2, KYC's `kyc_id`) and says the others are "not shown", their names included: the rest of
 * `schema` is our reading. So a field outside `documented` whose value does not fit it is
 * read with its decimal strings as numbers (`"100.00"`), and left out if it still does not
 * fit, never an error that would hide an order the service did create; the raw answer stays
 * readable through `withResponse()`. `fill` gives what the SDK knows when the answer does not
 * say it (the reference it looked up, the `kyc_id` it verified); `data` that is not an object
 * (a verify answering `null`) reads as `{}` with `fill`.
 */
export function rampAnswer<S extends z.ZodObject>(schema: S, documented: readonly string[], fill: Record<string, unknown> = {}) {
  return z.preprocess((value) => {
    const answer: Record<string, unknown> = { ...(value !== null && typeof value === 'object' && !Array.isArray(value) ? value : {}) };
    for (const [key, known] of Object.entries(fill)) answer[key] ??= known;
    for (const [key, field] of Object.entries(schema.shape) as [string, z.ZodType][]) {
      if (documented.includes(key) || !(key in answer) || field.safeParse(answer[key]).success) continue;
      const read = numbers(answer[key]);
      if (field.safeParse(read).success) answer[key] = read;
      else delete answer[key];
    }
    return answer;
  }, schema);
}
