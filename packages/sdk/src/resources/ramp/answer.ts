import * as z from 'zod';

const DECIMAL = /^\s*-?\d+(?:\.\d+)?\s*$/;

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** `value` with every decimal string in it (at any depth) as a number. */
function numbers(value: unknown): unknown {
  if (typeof value === 'string') return DECIMAL.test(value) ? Number(value) : value;
  if (Array.isArray(value)) return value.map(numbers);
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, numbers(v)]));
  return value;
}

/** The object schema inside `field` (optional, nullable), if it is one. */
function objectIn(field: z.ZodType): z.ZodObject | undefined {
  let inner: z.ZodType = field;
  while (inner instanceof z.ZodOptional || inner instanceof z.ZodNullable) inner = inner.unwrap() as z.ZodType;
  return inner instanceof z.ZodObject ? inner : undefined;
}

/**
 * `value` with each field of `schema` outside `documented` that does not fit it read again:
 * its decimal strings as numbers, an object field member by member, and left out if it still
 * does not fit.
 */
function repair(schema: z.ZodObject, value: Record<string, unknown>, documented: readonly string[]): Record<string, unknown> {
  const answer = { ...value };
  for (const [key, field] of Object.entries(schema.shape) as [string, z.ZodType][]) {
    if (documented.includes(key) || !(key in answer) || field.safeParse(answer[key]).success) continue;
    const inner = objectIn(field);
    const own = answer[key];
    const read = inner && isRecord(own) ? repair(inner, own, []) : numbers(own);
    if (field.safeParse(read).success) answer[key] = read;
    else delete answer[key];
  }
  return answer;
}

/**
 * Reads an answer of the ramp API with `schema`, holding the service only to what 001 shows.
 * 001 names few fields of its answers (the order's `reference` and the fields of its section
 * 2, KYC's `kyc_id`) and says the others are "not shown", their names included: the rest of
 * `schema` is our reading. So a field outside `documented` whose value does not fit it is
 * read with its decimal strings as numbers (`"100.00"`), an object member by member (an
 * off-ramp's `deposit` keeps its address when its memo has another form), and left out if it
 * still does not fit: never an error that would hide an order the service did create; the raw
 * answer stays readable through `withResponse()`. `fill` gives what the SDK knows when the
 * answer does not say it (the reference it looked up, the `kyc_id` it verified); `data` that
 * is not an object (a verify answering `null`) reads as `{}` with `fill`.
 */
export function rampAnswer<S extends z.ZodObject>(schema: S, documented: readonly string[], fill: Record<string, unknown> = {}): z.ZodType<z.output<S>> {
  return z.unknown().transform((value, ctx) => {
    const answer: Record<string, unknown> = { ...(isRecord(value) ? value : {}) };
    for (const [key, known] of Object.entries(fill)) answer[key] ??= known;
    // An answer that fits is parsed once; its fields are looked at one by one only when it does not.
    let result = schema.safeParse(answer);
    if (!result.success) result = schema.safeParse(repair(schema, answer, documented));
    if (result.success) return result.data;
    ctx.issues.push(...result.error.issues.map((issue) => ({ ...issue, input: undefined })));
    return z.NEVER;
  });
}
