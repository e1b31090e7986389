/**
 * The generator: the OpenAPI 3.1 document of every route in `routes.ts`, each schema rendered
 * by zod's own `z.toJSONSchema` (JSON Schema 2020-12, OpenAPI 3.1's dialect): request bodies
 * and parameters from the input side (what a caller sends), answers from the output side
 * (what the service sends). Run by `scripts/openapi.ts` at build time; nothing here ships as code.
 */
import * as z from 'zod';
import { stellarAmount } from '../core/schema.js';
import { ERROR_SCHEMAS, ROUTES, WEBHOOKS, type Auth, type ErrorStyle, type Header, type Route, type Server, type Webhook } from './routes.js';

type Json = Record<string, unknown>;

/** Where each server is by default: the mock server's layout under its default origin. */
const MOCK_ORIGIN = 'https://mock.sikaramp.test';
const SERVERS: Record<Server, { variable: string; default: string; description: string }> = {
  base: { variable: 'base_url', default: MOCK_ORIGIN, description: 'The widget backend and merchant dashboard API.' },
  anchor: { variable: 'anchor_url', default: `${MOCK_ORIGIN}/anchor`, description: 'The anchor (SEP-10, 12, 24; SEP-38 under /sep38).' },
  anchorOrigin: { variable: 'anchor_origin', default: MOCK_ORIGIN, description: "The anchor's home domain, where its stellar.toml is." },
  ramp: { variable: 'ramp_base_url', default: MOCK_ORIGIN, description: 'The ramp order API (sandbox or production, given at activation).' },
  checkout: { variable: 'checkout_base_url', default: MOCK_ORIGIN, description: 'The checkout API.' },
  gateway: { variable: 'gateway_url', default: `${MOCK_ORIGIN}/gateway`, description: 'The payment gateway, for integrations not yet migrated.' },
};

const SECURITY: Record<Exclude<Auth, 'none'>, Json> = {
  merchantToken: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The access token of POST /api/v1/merchant/login, valid 24 hours.' },
  apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'A public (domain-restricted) or secret key.' },
  rampKey: { type: 'http', scheme: 'bearer', description: 'A secret API key of a merchant activated for ramp services.' },
  sep10: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The SEP-10 token of POST /auth, valid 15 minutes.' },
  checkoutKey: { type: 'http', scheme: 'bearer', description: 'An active checkout key linked to an organization.' },
};

const ERROR_NAMES: Record<ErrorStyle, string> = { envelope: 'EnvelopeError', sep: 'SepError', checkout: 'CheckoutError' };

const STATUS_TEXT: Record<number, string> = {
  400: 'The request is not valid: nothing changed.',
  401: 'Missing, invalid or expired credentials.',
  403: 'The credentials may not do this (domain, IP, permission, KYC, or a missing SEP-10 token at the anchor).',
  404: 'Not found, or not reachable with these credentials.',
  409: 'Conflicts with the current state or an earlier request (idempotency key).',
  415: 'The body was not sent as application/json: nothing changed.',
  422: 'Understood but refused (phone not verified, quote expired, amount out of range, wrong code).',
  429: 'Too many requests: wait as Retry-After says.',
  500: 'The service failed.',
  502: 'The gateway did not answer usably: retry with the same Idempotency-Key; a lookup is unknown, not failed.',
};

/**
 * One schema as JSON Schema 2020-12. zod renders everything the SDK uses but two things,
 * corrected here rather than written by hand:
 * - `stellarAmount` (a number or a decimal string, then checked as a string): its input side
 *   is the union before the pipe, without the string's pattern; the pattern is put back;
 * - `z.date()` (a Date the SDK turns into ISO 8601 before sending) has no JSON form: on the
 *   wire it is a date-time string.
 * Open enums (`openEnum`) render as `anyOf: [{enum}, {type: string}]`, which is what they
 * mean: the known values, and any other string the service adds later.
 */
export function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  const out = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema: js }) => {
      if (zodSchema._zod.def.type === 'date') Object.assign(js, { type: 'string', format: 'date-time' });
      if (io === 'input' && zodSchema === stellarAmount) {
        const { pattern } = z.toJSONSchema(stellarAmount, { target: 'draft-2020-12', io: 'output' }) as { pattern: string };
        for (const key of Object.keys(js)) delete (js as Json)[key];
        Object.assign(js, { anyOf: [{ type: 'number', exclusiveMinimum: 0 }, { type: 'string', pattern }] });
      }
    },
  }) as Json;
  delete out.$schema;
  return out;
}

function parameters(route: Route): Json[] {
  const path = [...route.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({ name, in: 'path', required: true, schema: { type: 'string', minLength: 1 } }));
  const headers = (route.headers ?? []).map((h) => header(h));
  const query: Json[] = [];
  if (route.query) {
    const object = jsonSchema(route.query, 'input') as { properties: Record<string, Json>; required?: string[] };
    for (const [name, schema] of Object.entries(object.properties)) {
      query.push({ name, in: 'query', required: object.required?.includes(name) ?? false, schema });
    }
  }
  return [...path, ...query, ...headers];
}

function header(h: Header): Json {
  return { name: h.name, in: 'header', required: h.required, description: h.description, schema: jsonSchema(h.schema, 'input') };
}

function operation(route: Route): Json {
  const responses: Json = {};
  for (const [status, answer] of Object.entries(route.responses)) {
    const contentType = answer.contentType ?? 'application/json';
    responses[status] = { description: answer.description, content: { [contentType]: { schema: jsonSchema(answer.schema, 'output') } } };
  }
  for (const status of route.errors) {
    responses[status] = {
      description: STATUS_TEXT[status] ?? 'An error.',
      content: { 'application/json': { schema: { $ref: `#/components/schemas/${ERROR_NAMES[route.errorStyle]}` } } },
    };
  }
  const op: Json = {
    operationId: operationId(route),
    tags: [route.tag],
    summary: route.summary,
    security: route.auth === 'none' ? [] : [{ [route.auth]: [] }],
  };
  const params = parameters(route);
  if (params.length > 0) op.parameters = params;
  if (route.body) op.requestBody = { required: true, content: { 'application/json': { schema: jsonSchema(route.body, 'input') } } };
  op.responses = responses;
  if (route.callbacks) {
    op.callbacks = Object.fromEntries(route.callbacks.map((name) => [name, { '{$request.body#/url}': { post: webhookOperation(name, WEBHOOKS[name]) } }]));
  }
  return op;
}

/** `post /api/v1/merchant/apikeys/{id}` -> `postApiV1MerchantApikeysId`: unique, as (method, path) is. */
function operationId(route: Route): string {
  const words = route.path.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return route.method + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
}

function webhookOperation(name: string, webhook: Webhook): Json {
  return {
    operationId: `${name}Webhook`,
    summary: webhook.summary,
    parameters: webhook.headers.map(header),
    requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(webhook.body, 'output') } } },
    responses: { '2XX': { description: 'Acknowledged: any other answer (or none within 8 s) is a failed delivery.' } },
  };
}

function server(name: Server): Json {
  const { variable, default: url, description } = SERVERS[name];
  return { url: `{${variable}}`, description, variables: { [variable]: { default: url } } };
}

/** The whole document; `version` is the SDK's. */
export function openapiDocument(version: string): Json {
  const paths: Record<string, Json> = {};
  for (const route of ROUTES) {
    const item = (paths[route.path] ??= route.server === 'base' ? {} : { servers: [server(route.server)] });
    if (item[route.method]) throw new Error(`two routes ${route.method} ${route.path}`);
    item[route.method] = operation(route);
  }
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Sikaramp',
      version,
      summary: 'Ghana cedi <-> USDC ramp and checkout payments: merchant dashboard, widget backend, anchor, ramp orders, checkout.',
      description:
        'Generated from the zod schemas of @sikaramp/sdk. The server defaults are the layout of @sikaramp/mock-server, which serves this document at /_mock/openapi.json. Answers are read leniently: objects may carry fields added later, and open enums values added later.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [server('base')],
    tags: [...new Set(ROUTES.map((r) => r.tag))].map((name) => ({ name })),
    paths,
    webhooks: Object.fromEntries(Object.entries(WEBHOOKS).map(([name, webhook]) => [name, { post: webhookOperation(name, webhook) }])),
    components: {
      securitySchemes: SECURITY,
      schemas: Object.fromEntries(Object.entries(ERROR_SCHEMAS).map(([style, schema]) => [ERROR_NAMES[style as ErrorStyle], jsonSchema(schema, 'output')])),
    },
  };
}
