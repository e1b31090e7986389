/**
 * Every endpoint of the mock server under malformed, missing, oversized and wrongly typed
 * fields, bad JSON, wrong content types, unicode, huge, negative and fractional numbers, and
 * wrong credentials (fast-check, in-process through msw/node). Each answer must be the
 * surface's documented error body with the right status, never a 500 or a hang, and a
 * refused request must leave the store exactly as it was.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store.js';
import { startInProcess, type MockEnv } from '../helpers/env.js';
import { CONTROL_ENDPOINTS, ENDPOINTS, type Endpoint } from './endpoints.js';
import { expectRefusal, send, storeText } from './harness.js';
import { badAmount, deep, Raw, headerText, nastyString, notJson, notObject, stringify, unknownId } from './values.js';
import { buildWorld, type World } from './world.js';

/** Runs per endpoint; the endpoints whose successes hash a password get fewer (scrypt is slow on purpose). */
const RUNS = 40;
const SLOW_RUNS = 12;
const SLOW = new Set(['POST /api/v1/merchant/register', 'POST /api/v1/merchant/login']);

interface Case {
  label: string;
  /** Statuses allowed; `any` for a documented success or refusal. */
  expect: number[] | 'any';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** A body as a form: nested values are written as JSON text. */
const formText = (b: Record<string, unknown>) =>
  new URLSearchParams(Object.entries(b).map(([k, v]) => [k, typeof v === 'string' ? v : stringify(v)])).toString();

/** Sets (or, with `undefined`, deletes) the value at a dotted path of a copy of `body`. */
function setPath(body: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const copy = structuredClone(body);
  const keys = path.split('.');
  let node: any = copy;
  for (const key of keys.slice(0, -1)) {
    if (node[key] === null || typeof node[key] !== 'object') node[key] = {};
    node = node[key];
  }
  const last = keys.at(-1)!;
  if (value === undefined) delete node[last];
  else node[last] = value;
  return copy;
}

const withQuery = (path: string, name: string, value: string | undefined) => {
  const url = new URL(path, 'http://x');
  if (value === undefined) url.searchParams.delete(name);
  else url.searchParams.set(name, value);
  return `${url.pathname}${url.search}`;
};

function cases(e: Endpoint, w: World): fc.Arbitrary<Case> {
  const credential = () => (e.auth ? { [e.auth.header]: e.auth.value(w) } : {});
  const request = (label: string, expect: Case['expect'], over: Partial<Case> = {}): Case => ({
    label,
    expect,
    path: e.path(w),
    headers: { ...credential(), ...e.headers?.(w), ...(e.freshHeader ? { [e.freshHeader]: crypto.randomUUID() } : {}) },
    ...over,
  });
  /** The case with a valid body, when the endpoint takes one. */
  const withValidBody = (c: Case): Case => {
    if (!e.body) return c;
    const b = fc.sample(e.body.valid(w), 1)[0]!;
    const form = e.body.form;
    return {
      ...c,
      headers: { ...c.headers, 'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json' },
      body: form ? formText(b) : stringify(b),
    };
  };
  const arbs: fc.Arbitrary<Case>[] = [];

  if (e.body) {
    const { valid, fields, form, forms, optional, emptyRefused } = e.body;
    const contentType = form ? 'application/x-www-form-urlencoded' : 'application/json';
    const encode = (b: Record<string, unknown>) => (form ? formText(b) : stringify(b));
    const withBody = (label: string, expect: Case['expect'], b: Record<string, unknown>) => {
      const c = request(label, expect);
      return { ...c, headers: { ...c.headers, 'content-type': contentType }, body: encode(b) };
    };
    const rawBody = (label: string, expect: Case['expect'], text: string, type = contentType) => {
      const c = request(label, expect);
      return { ...c, headers: { ...c.headers, 'content-type': type }, body: text };
    };
    const anyRequired = Object.values(fields).some((f) => f.required);
    const fieldRefused = [e.fieldRefused ?? 400];
    for (const [path, spec] of Object.entries(fields)) {
      if (spec.required) arbs.push(valid(w).map((b) => withBody(`without ${path}`, fieldRefused, setPath(b, path, undefined))));
      if (spec.bad) arbs.push(fc.tuple(valid(w), spec.bad).map(([b, v]) => withBody(`${path} = ${short(v)}`, fieldRefused, setPath(b, path, v))));
      if (spec.odd) arbs.push(fc.tuple(valid(w), spec.odd).map(([b, v]) => withBody(`${path} = ${short(v)} (odd)`, 'any', setPath(b, path, v))));
    }
    arbs.push(
      notJson.map((t) => rawBody(`body ${short(t)}`, [400], t)),
      fc.constantFrom(1_000_001, 1_200_000).map((n) => rawBody(`body of ${n} bytes`, [400], `{"pad":"${'x'.repeat(n)}"}`)),
      fc.constant(rawBody('empty body', optional ? 'any' : [400], '')),
    );
    if (!form) {
      arbs.push(
        notObject.map((t) => rawBody(`body ${short(t)} (not an object)`, [400], t)),
        fc.constant(rawBody('body {}', anyRequired || emptyRefused ? fieldRefused : 'any', '{}')),
        // Unknown fields are ignored, whatever they hold, deep nesting included.
        fc
          .tuple(valid(w), nastyString, fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.constantFrom(deep(20_000), deep(200_000))))
          .map(([b, k, v]) => withBody(`extra field ${short(k)}`, 'any', setPath(b, k.replace(/\./g, '_'), v))),
      );
      if (forms) {
        arbs.push(
          fc.tuple(valid(w), fc.constantFrom('text/plain', 'application/xml', 'image/png')).map(([b, t]) => rawBody(`content-type ${t}`, [400], stringify(b), t)),
          valid(w).map((b) => rawBody('form-urlencoded', 'any', formText(b), 'application/x-www-form-urlencoded')),
        );
      } else if (e.body.jsonOnly) {
        arbs.push(
          valid(w).map((b) => rawBody('form-urlencoded body', [415], formText(b), 'application/x-www-form-urlencoded')),
          fc.tuple(valid(w), fc.constantFrom('text/plain', 'application/xml')).map(([b, t]) => rawBody(`content-type ${t}`, [415], stringify(b), t)),
        );
      } else {
        arbs.push(
          valid(w).map((b) => rawBody('form-urlencoded body', optional ? 'any' : [400], formText(b), 'application/x-www-form-urlencoded')),
          fc.tuple(valid(w), fc.constantFrom('text/plain', 'application/xml')).map(([b, t]) => rawBody(`content-type ${t}`, 'any', stringify(b), t)),
        );
      }
    }
  }

  if (e.auth) {
    const { header, refused, others } = e.auth;
    const garbage = header === 'authorization' ? fc.oneof(headerText, headerText.map((t) => `Bearer ${t}`)) : headerText;
    // The credential is checked first: the rest of the request is valid.
    const credentialed = (label: string, expect: number[], value: string | undefined): Case => {
      const c = withValidBody(request(label, expect));
      if (value === undefined) delete c.headers[header];
      else c.headers[header] = value;
      return c;
    };
    arbs.push(
      fc.constant(null).map(() => credentialed(`without ${header}`, [refused], undefined)),
      garbage.map((g) => credentialed(`${header}: ${short(g)}`, [refused], g)),
      ...(others?.(w) ?? []).map(([value, status]) => fc.constant(null).map(() => credentialed(`another credential (${status})`, [status], value))),
    );
  }

  if (e.param) {
    const statuses = e.param;
    arbs.push(
      fc.oneof(unknownId, fc.constantFrom(' ', '  ')).map((id) =>
        withValidBody(request(`unknown id ${short(id)}`, id.trim() === '' ? [statuses[0]!] : statuses, { path: e.path(w, id) })),
      ),
    );
  }

  for (const [name, spec] of Object.entries(e.query ?? {})) {
    const refused = [e.queryRefused ?? 400];
    if (spec.required) arbs.push(fc.constant(null).map(() => request(`without ?${name}`, refused, { path: withQuery(e.path(w), name, undefined) })));
    if (spec.bad) arbs.push(spec.bad.map((v) => request(`?${name}=${short(v)}`, refused, { path: withQuery(e.path(w), name, v) })));
    if (spec.odd) arbs.push(spec.odd.map((v) => request(`?${name}=${short(v)} (odd)`, 'any', { path: withQuery(e.path(w), name, v) })));
  }

  for (const [name, bad] of Object.entries(e.badHeaders ?? {})) {
    arbs.push(
      bad.map((v) => {
        const c = withValidBody(request(`${name}: ${short(v)}`, [400]));
        c.headers[name] = v;
        return c;
      }),
    );
  }
  // Whatever else it is sent, an endpoint without input answers as documented.
  arbs.push(fc.constant(null).map(() => withValidBody(request('valid request', 'any'))));
  return fc.oneof(...arbs);
}

const short = (v: unknown) => {
  const text = typeof v === 'string' ? JSON.stringify(v) : stringify(v) ?? String(v);
  return text.length > 60 ? `${text.slice(0, 60)}…(${text.length})` : text;
};

/** The request `e` answers with success in the world (or with its `baseline` status). */
function validRequest(e: Endpoint, w: World): Case {
  // A UUID: the widget order endpoint takes no other idempotency key (000 section 5); the ramp API takes one as well.
  const headers: Record<string, string> = { ...(e.auth ? { [e.auth.header]: e.auth.value(w) } : {}), ...e.headers?.(w), ...(e.freshHeader ? { [e.freshHeader]: crypto.randomUUID() } : {}) };
  if (!e.body) return { label: 'valid', expect: e.ok, path: e.path(w), headers };
  const body = fc.sample(e.body.valid(w), { numRuns: 1, seed: 1 })[0]!;
  const form = e.body.form;
  return {
    label: 'valid',
    expect: e.ok,
    path: e.path(w),
    headers: { ...headers, 'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json' },
    body: form ? new URLSearchParams(body as Record<string, string>).toString() : stringify(body),
  };
}

describe('bad input at every endpoint (in-process)', () => {
  let env: MockEnv;
  let world: World;
  let pristine: Store;

  beforeAll(async () => {
    env = await startInProcess({ seed: 11 });
    world = await buildWorld(env);
    await env.backend.clock.idle();
    // The world holds still: no expiry or retry fires while endpoints are probed.
    env.backend.clock.stop();
    pristine = structuredClone(env.backend.store);
  }, 30_000);
  afterAll(() => env.close());
  // Each endpoint starts from the same world, whatever the one before it created or deleted.
  beforeEach(() => {
    env.backend.context.store = structuredClone(pristine);
  });

  const probe = async (e: Endpoint, c: Case) => {
    const { backend } = env;
    await backend.clock.idle();
    const before = storeText(backend.store, e.countsTries);
    const answer = await send(`${env.origin}${c.path}`, { method: e.method, headers: c.headers, body: c.body });
    await backend.clock.idle();
    const context = `${e.name}, ${c.label}`;
    // Never a 5xx, but for the documented 502 of a field the gateway refuses.
    if (answer.status !== e.fieldRefused) expect(answer.status, `${context} -> ${answer.status} ${answer.text.slice(0, 300)}`).toBeLessThan(500);
    const allowed = c.expect === 'any' ? [...e.ok, 400, ...(e.refusals ?? []), ...(e.param ?? []), ...(e.fieldRefused ? [e.fieldRefused] : [])] : c.expect;
    expect(allowed, `${context} -> ${answer.status} ${answer.text.slice(0, 300)}`).toContain(answer.status);
    if (answer.status >= 400) {
      expectRefusal(e.style, answer, world.secrets, context, e.fieldRefused);
      expect(storeText(backend.store, e.countsTries), `${context}: a refused request changed the store`).toBe(before);
    }
  };

  describe.each([
    ['service endpoints', ENDPOINTS],
    ['control endpoints (/_mock)', CONTROL_ENDPOINTS],
  ])('%s', (_group, endpoints) => {
    it.each(endpoints.map((e) => [e.name, e] as const))('%s refuses bad input with its documented error, never a 500, changing nothing', async (_name, e) => {
      await fc.assert(
        fc.asyncProperty(cases(e, world), (c) => probe(e, c)),
        { numRuns: SLOW.has(e.name) ? SLOW_RUNS : RUNS },
      );
      // The valid request still gets through: the refusals above were the input's doing.
      env.backend.context.store = structuredClone(pristine);
      const valid = validRequest(e, world);
      const answer = await send(`${env.origin}${valid.path}`, { method: e.method, headers: valid.headers, body: valid.body });
      expect(e.baseline === undefined ? e.ok : [e.baseline], `${e.name}, valid request -> ${answer.status} ${answer.text.slice(0, 300)}`).toContain(answer.status);
    });
  });
});

describe('POST /_mock/clock/advance with bad input (in-process)', () => {
  let env: MockEnv;
  beforeAll(async () => {
    env = await startInProcess({ seed: 12 });
  });
  afterAll(() => env.close());

  it('refuses what is not a number of seconds from 0 to 100 years with 400, leaving the clock where it was', async () => {
    const seconds = fc.oneof(
      // Zero (and -0) is a valid advance.
      badAmount.filter((v) => v !== 0 && !(v instanceof Raw && v.text === '-0')),
      fc.double({ min: 100 * 365 * 24 * 3600 + 1, noNaN: true }),
      fc.constantFrom(1e13, 1e300, Number.MAX_VALUE),
    );
    await fc.assert(
      fc.asyncProperty(fc.oneof(seconds.map((s) => stringify({ seconds: s })), notJson, notObject), async (body) => {
        const before = env.backend.clock.now();
        const answer = await send(`${env.origin}/_mock/clock/advance`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        expect(answer.status, `${body.slice(0, 80)} -> ${answer.text}`).toBe(400);
        expectRefusal('envelope', answer, [], body.slice(0, 80));
        expect(env.backend.clock.now()).toBe(before);
      }),
      { numRuns: RUNS },
    );
    const ok = await send(`${env.origin}/_mock/clock/advance`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"seconds":0.5}' });
    expect(ok.status).toBe(200);
  });
});
