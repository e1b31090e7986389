/**
 * Inputs for the SDK's checks. For each kind of field: values the SDK must accept (`valid`, a
 * fast-check arbitrary), and values it must refuse, both as named `cases` (every one is
 * tried, so that a rare refusal is never left to chance) and as an arbitrary (`bad`) mixing
 * them with random malformed values. For an object of such fields: every way to spoil it (a
 * required field missing, one field wrongly typed or malformed, an unknown field, no object).
 */
import { StrKey } from '@stellar/stellar-sdk';
import fc from 'fast-check';

export type JsonType = 'string' | 'number' | 'boolean' | 'array' | 'object';

/** A bad input, and what is wrong with it, for the failure message. */
export interface Case {
  label: string;
  value: unknown;
}

/** A value as a failure message shows it: short, and NaN, -0 and dates readable. */
export function show(value: unknown): string {
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  if (value instanceof Date) return `Date(${value.getTime()})`;
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 48 ? `${text.slice(0, 40)}…(${text.length})` : text;
}

const asCase = (value: unknown): Case => ({ label: show(value), value });

export interface Field {
  /** Values the SDK must accept. */
  valid: fc.Arbitrary<unknown>;
  /** Values it must refuse: each is tried. */
  cases: Case[];
  /** Values it must refuse: `cases` and random ones. */
  bad: fc.Arbitrary<unknown>;
  /** The JSON type (or types) the field takes; values of the others are refused too. */
  type: JsonType | JsonType[];
  optional?: boolean;
  nullable?: boolean;
}

/** A field: what it accepts, the values it must refuse, and more random ones. */
export function field(type: JsonType | JsonType[], valid: fc.Arbitrary<unknown>, cases: unknown[], more: fc.Arbitrary<unknown>[] = []): Field {
  return { type, valid, cases: cases.map(asCase), bad: fc.oneof(fc.constantFrom(...cases), ...more) };
}
export const optional = (f: Field): Field => ({ ...f, optional: true });
export const nullable = (f: Field): Field => ({ ...f, nullable: true });

const OF_TYPE: Record<JsonType, unknown[]> = {
  string: ['100', 'true', ''],
  number: [0, 42, -1.5, Number.NaN],
  boolean: [true, false],
  array: [[], ['USDC']],
  object: [{}, { value: 1 }],
};

/** One value of every JSON type the field does not take (null too, unless it takes null). */
export function wrongTypes(f: Field): unknown[] {
  const types = [f.type].flat();
  return [...(Object.keys(OF_TYPE) as JsonType[]).filter((t) => !types.includes(t)).flatMap((t) => OF_TYPE[t].slice(0, 2)), ...(f.nullable ? [] : [null])];
}

/** Random values of every JSON type the field does not take. */
export function wrongType(f: Field): fc.Arbitrary<unknown> {
  const byType: Record<JsonType, fc.Arbitrary<unknown>> = {
    string: fc.string(),
    number: fc.oneof(fc.integer(), fc.double()),
    boolean: fc.boolean(),
    array: fc.array(fc.jsonValue(), { maxLength: 3 }),
    object: fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue(), { maxKeys: 3 }),
  };
  const types = [f.type].flat();
  return fc.oneof(fc.constantFrom(...wrongTypes(f)), ...(Object.keys(byType) as JsonType[]).filter((t) => !types.includes(t)).map((t) => byType[t]));
}

/** Names no schema knows, including the ones that reach prototypes. */
const UNKNOWN_KEYS = ['__proto__', 'constructor', 'extra', 'amount '];
const unknownKey = fc.oneof(fc.constantFrom(...UNKNOWN_KEYS), fc.string({ minLength: 1, maxLength: 12 }));
const NOT_OBJECTS = [null, 'input', 42, true, [], [{}]];

const withKey = (value: Record<string, unknown>, key: string, x: unknown) =>
  Object.defineProperty({ ...value }, key, { value: x, enumerable: true, configurable: true, writable: true });
const without = (value: Record<string, unknown>, key: string) => Object.fromEntries(Object.entries(value).filter(([k]) => k !== key));

export interface ObjectInput {
  valid: fc.Arbitrary<Record<string, unknown>>;
  /** Bad inputs, each tried: one thing wrong in a valid input. */
  cases: Case[];
  /** Bad inputs, at random. */
  invalid: fc.Arbitrary<unknown>;
}

/**
 * An object input made of `fields`: `valid` (every required field, any optional ones) and the
 * bad ones (exactly one thing wrong). `loose` objects accept unknown fields by design.
 */
export function object(
  fields: Record<string, Field>,
  options: { loose?: boolean; refine?: (value: Record<string, unknown>) => boolean } = {},
): ObjectInput {
  const names = Object.keys(fields);
  const required = names.filter((n) => !fields[n]!.optional);
  const valid = fc
    .record(Object.fromEntries(names.map((n) => [n, fields[n]!.valid])), { requiredKeys: required })
    .filter((v) => options.refine?.(v) ?? true) as fc.Arbitrary<Record<string, unknown>>;
  // A base with every field, so that each case changes exactly one thing.
  const [base] = fc.sample(fc.record(Object.fromEntries(names.map((n) => [n, fields[n]!.valid]))), { numRuns: 1, seed: 7 }) as [Record<string, unknown>];
  const cases: Case[] = [
    ...names.flatMap((n) => [...fields[n]!.cases, ...wrongTypes(fields[n]!).map(asCase)].map(({ label, value }) => ({ label: `${n}: ${label}`, value: { ...base, [n]: value } }))),
    ...required.map((n) => ({ label: `without ${n}`, value: without(base, n) })),
    ...(options.loose ? [] : UNKNOWN_KEYS.map((k) => ({ label: `unknown field ${show(k)}`, value: withKey(base, k, 'x') }))),
    ...NOT_OBJECTS.map(asCase),
  ];
  const spoilers: fc.Arbitrary<unknown>[] = [
    valid.chain((v) => fc.constantFrom(...names).chain((n) => fc.oneof(fields[n]!.bad, wrongType(fields[n]!)).map((bad) => ({ ...v, [n]: bad })))),
    fc.constantFrom(...NOT_OBJECTS),
  ];
  if (required.length > 0) spoilers.push(valid.chain((v) => fc.constantFrom(...required).map((n) => without(v, n))));
  if (!options.loose) {
    spoilers.push(valid.chain((v) => unknownKey.filter((k) => !names.includes(k)).chain((k) => fc.jsonValue().map((x) => withKey(v, k, x)))));
  }
  return { valid, cases, invalid: fc.oneof(...spoilers) };
}

/** An object input as one field of a bigger one. */
export function nested(input: ObjectInput): Field {
  const isObject = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v);
  return { type: 'object', valid: input.valid, cases: input.cases.filter((c) => isObject(c.value)), bad: input.invalid.filter(isObject) };
}

/** An array of `item`, with `min` to `max` entries (no maximum when `max` is undefined). */
export function list(item: Field, min: number, max?: number): Field {
  const valid = fc.array(item.valid, { minLength: min, maxLength: Math.min(max ?? Infinity, min + 4) });
  const [some] = fc.sample(fc.array(item.valid, { minLength: Math.max(min, 1), maxLength: Math.max(min, 1) }), { numRuns: 1, seed: 7 }) as [unknown[]];
  const cases: Case[] = [
    ...[...item.cases, ...wrongTypes(item).map(asCase)].map(({ label, value }) => ({ label: `[${some.length - 1}] ${label}`, value: [...some.slice(1), value] })),
    ...(min > 0 ? [asCase([])] : []),
    ...(max === undefined ? [] : [{ label: `${max + 1} entries`, value: Array.from({ length: max + 1 }, (_, i) => some[i % some.length]) }]),
  ];
  const bad = fc.oneof(
    fc.constantFrom(...cases.map((c) => c.value)),
    valid.filter((a) => a.length > 0).chain((a) => fc.nat(a.length - 1).chain((i) => fc.oneof(item.bad, wrongType(item)).map((b) => a.map((x, j) => (j === i ? b : x))))),
  );
  return { type: 'array', valid, cases, bad };
}

// Strings

/** Lone UTF-16 surrogates: not text, whatever a field allows. */
export const LONE_SURROGATES = ['\uD800', '\uDBFF', '\uDC00', 'a\uDFFFb', '\uD83D'];
/** Digits that are not ASCII: Arabic-Indic, fullwidth, Devanagari. */
export const FOREIGN_DIGITS = ['٠١٢٣٤٥٦٧٨٩', '０１２３４５６７８９', '०१२३४५६७८९'];
/** Far too long for any field. */
const HUGE_TEXT = 'x'.repeat(100_000);

/** Any text, unicode included, of at most `max` characters once trimmed. */
export function text(max = 200): Field {
  const trimmed = (s: string) => s.trim().length;
  return field(
    'string',
    fc.string({ minLength: 1, maxLength: Math.min(max, 40), unit: 'grapheme' }).filter((s) => trimmed(s) >= 1 && trimmed(s) <= max),
    ['', ' ', '\t\n', '\u00A0\u2003', 'é'.repeat(max + 1), ` ${'x'.repeat(max + 1)} `, HUGE_TEXT],
    [fc.string({ minLength: max + 1, maxLength: max + 20, unit: 'grapheme-ascii' }).filter((s) => trimmed(s) > max)],
  );
}

/** A string of a fixed format: what matches, and the near misses (`cases`), plus empty and huge. */
export const pattern = (valid: fc.Arbitrary<string>, cases: string[], more: fc.Arbitrary<string>[] = []) => field('string', valid, ['', HUGE_TEXT, ...cases], more);

export const email = () =>
  pattern(fc.stringMatching(/^[a-z0-9]{1,20}(?:\.[a-z0-9]{1,10})?@[a-z0-9]{1,20}\.[a-z]{2,6}$/), [
    'ama',
    'ama@',
    '@example.com',
    'a b@example.com',
    'ämä@exämple.com',
    'ama@example',
    'ama@@example.com',
    `${'a'.repeat(250)}@example.com`,
  ]);

export const localPhone = pattern(fc.stringMatching(/^0\d{9}$/), [
  '024123456',
  '02412345678',
  '+233241234567',
  '024 123 4567',
  ' 0241234567',
  '0241234567\n',
  '1241234567',
  ...FOREIGN_DIGITS,
]);

export const intlPhone = pattern(fc.stringMatching(/^\+\d{7,15}$/), ['0201234567', '+123456', '+1234567890123456', '+233 20 123 4567', '+٢٣٣٢٠١٢٣٤٥٦٧']);

export const countryCode = pattern(fc.stringMatching(/^[A-Z]{3}$/), ['GH', 'gha', 'GHAN', 'ＧＨＡ', 'ĞHA', 'G1A']);

/** A real Stellar account address. */
export const stellarAddress = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => StrKey.encodeEd25519PublicKey(Buffer.from(b)));
const ADDRESS = 'GBZXN7PIRZGNMHGA7MUUUF4GWPY5AYPV6LY4UV2GL6VJGIQRXFDNMADI';
export const gAddress = pattern(stellarAddress, [
  'GABC',
  'not-a-wallet',
  ADDRESS.toLowerCase(),
  `${ADDRESS}A`,
  ` ${ADDRESS}`,
  // A secret seed where the address goes.
  'SBK2VIYYSVG76E7VC3QHYARNFLY2EAQXDHRC7BMXBBGIFG74ARPRMNQM',
]);

/** An http(s) URL of at most 2048 characters. */
export const httpUrl = pattern(fc.webUrl({ validSchemes: ['https', 'http'], withQueryParameters: true }).filter((u) => u.length <= 2048), [
  'ftp://shop.example',
  'javascript:alert(1)',
  'shop.example/return',
  '//shop.example/return',
  'https//shop.example',
  'not a url',
  `https://shop.example/${'a'.repeat(2048)}`,
]);

/** Ids and references as services issue them, and unicode ones. */
export const idLike = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/),
  fc.string({ minLength: 1, maxLength: 30, unit: 'grapheme' }).filter((s) => !/[/?#\s]/.test(s) && s !== '.' && s !== '..'),
);

/** Every kind of string a path id could be given: ids, traversal attempts, unicode, blanks, over-long. */
export const anyId = fc.oneof(
  idLike,
  fc.constantFrom('', ' ', '.', '..', '../profile', '..%2Fprofile', '%2e%2e', 'a/b', 'a?b=1', 'a#b', 'a b', '\\..\\x', 'x'.repeat(201), ...LONE_SURROGATES),
  fc.string({ maxLength: 30, unit: 'binary' }),
);

// Numbers

/** GHS with at most two decimals, from `min` to `max`. */
export const cedis = (min: number, max = 500_000) => fc.integer({ min: Math.round(min * 100), max: max * 100 }).map((c) => c / 100);

/** Amounts nothing can carry: not finite, not positive, or beyond 2^53 of the smallest unit. */
export const NOT_FINITE = [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY];
export const NOT_POSITIVE = [0, -0, -1, -0.01, -Number.MAX_VALUE];
export const HUGE = [1e14, 2 ** 53, 1e21, 1e300, Number.MAX_VALUE];
export const huge = fc.double({ min: 1e14, max: Number.MAX_VALUE, noNaN: true });
export const nonPositive = fc.double({ max: 0, noNaN: true, noDefaultInfinity: true });

export function integer(min: number, max: number): Field {
  return field(
    'number',
    fc.integer({ min, max }),
    [min - 1, max < Number.MAX_SAFE_INTEGER ? max + 1 : 2 ** 53, min + 0.5, ...NOT_FINITE],
    [
      fc.integer({ min: Number.MIN_SAFE_INTEGER, max: min - 1 }),
      max < Number.MAX_SAFE_INTEGER ? fc.integer({ min: max + 1, max: Number.MAX_SAFE_INTEGER }) : fc.constantFrom(2 ** 53, 1e21, 1e300),
      fc.double({ min, max, noNaN: true }).filter((n) => !Number.isInteger(n)),
    ],
  );
}
