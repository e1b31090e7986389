/**
 * Hostile values for request fields: wrong JSON types, malformed text, unicode, huge and
 * negative numbers, raw number literals that JSON.stringify cannot write (`1e400` parses to
 * Infinity), and deep nesting.
 */
import fc from 'fast-check';

/** A JSON literal written as is into the body text (see {@link stringify}). */
export class Raw {
  constructor(readonly text: string) {}
}
export const raw = (text: string) => new Raw(text);

/** JSON.stringify, with each {@link Raw} value written as its literal text. */
export function stringify(value: unknown): string {
  const literals: string[] = [];
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (!(v instanceof Raw)) return v;
    literals.push(v.text);
    return `\u0001raw${literals.length - 1}\u0001`;
  });
  return text.replace(/"\\u0001raw(\d+)\\u0001"/g, (_m, i: string) => literals[Number(i)]!);
}

const json = {
  string: fc.string({ maxLength: 8 }),
  number: fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })),
  boolean: fc.boolean(),
  null: fc.constant(null),
  array: fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
  object: fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
};
export type JsonType = keyof typeof json;

/** Any JSON value whose type is none of `types`. */
export const not = (...types: JsonType[]): fc.Arbitrary<unknown> =>
  fc.oneof(...Object.entries(json).filter(([t]) => !types.includes(t as JsonType)).map(([, a]) => a as fc.Arbitrary<unknown>));

/** Strings a careless parser trips on: control characters, bidi overrides, astral and lone surrogates, markup, paths. */
export const nastyString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.constantFrom(
    '\u0000',
    '\u202eevil',
    '🙂🙂🙂',
    'Ámà Ɔkɔ',
    '\ud800',
    '<script>alert(1)</script>',
    "' OR 1=1 --",
    '__proto__',
    'constructor',
    '../../etc/passwd',
    '%00%0d%0a',
    '\r\n\t',
    'x'.repeat(5_000),
  ),
);

/** Blank strings, which trimmed fields refuse. */
export const blank = fc.constantFrom('', ' ', '\t\n ');

/** A string of more than `max` characters. */
export const longer = (max: number) => fc.integer({ min: max + 1, max: max + 40 }).map((n) => 'x'.repeat(n));

/** Numbers that are not usable amounts anywhere: negative, zero, infinite, or not numbers at all. */
export const badAmount: fc.Arbitrary<unknown> = fc.oneof(
  fc.double({ max: -Number.MIN_VALUE, noNaN: true, noDefaultInfinity: true }),
  fc.integer({ max: -1 }),
  fc.constantFrom(0, raw('-0'), raw('1e400'), raw('-1e400'), raw(`1${'0'.repeat(400)}`)),
  not('number'),
);

/** Positive numbers an amount field may or may not take: fractions, huge values, the tiniest double. */
export const oddAmount: fc.Arbitrary<unknown> = fc.oneof(
  fc.double({ min: Number.MIN_VALUE, max: 1e7, noNaN: true }),
  fc.constantFrom(5e-324, 1e-7, 0.1 + 0.2, 10.005, 2 ** 53 + 2, 2 ** 64, 1e21, 1e308, raw('1.0000000000000000000001')),
);

/** JSON nested `depth` levels deep: parses fine, but recursion over it overflows the stack. */
export const deep = (depth: number) => raw(`${'['.repeat(depth)}${']'.repeat(depth)}`);

/** Texts that are not JSON at all. */
export const notJson: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('{', '{"a":', "{'a':1}", '[1,]', 'NaN', 'undefined', '{"a":1}}', '\u0000', '{"amount": 1e}', 'nul', '<xml/>'),
  fc.string({ minLength: 1, maxLength: 30 }).filter((s) => {
    try {
      JSON.parse(s);
      return false;
    } catch {
      return s.trim() !== '';
    }
  }),
);

/** JSON that is not an object. */
export const notObject: fc.Arbitrary<string> = fc
  .oneof(fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 4 }), json.number, json.string, json.boolean, json.null)
  .map((v) => JSON.stringify(v));

/** A path segment nothing is stored under: unicode, long, reserved characters (never `.` or `..`, which change the route). */
export const unknownId: fc.Arbitrary<string> = fc
  .oneof(
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }),
    fc.uuid(),
    fc.constantFrom('0', '-1', 'null', '%', '%2e%2e%2f', 'a'.repeat(2_000), 'ord_', 'RMP-20260101-x', 'cs_', 'evt_', 'whd_'),
  )
  .filter((s) => s.trim() !== '' && s !== '.' && s !== '..');

/** Printable ASCII, as an HTTP header value can carry (fetch refuses the rest before sending). */
export const headerText = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 80 });
