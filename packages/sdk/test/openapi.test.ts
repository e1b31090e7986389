/**
 * The OpenAPI document generated from the SDK's zod schemas (src/openapi/): one operation per
 * route of the table, and the renderings zod gets wrong corrected. The built package's copy
 * (`@sikaramp/sdk/openapi.json`) is loaded by test/packaging/install.test.ts.
 */
import { readFileSync } from 'node:fs';
import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { stellarAmount, openEnum } from '../src/core/schema.js';
import { jsonSchema, openapiDocument } from '../src/openapi/document.js';
import { AnchorChallengeSchema, AnchorTokenSchema } from '../src/resources/anchor/sep10.js';
import { ROUTES } from '../src/openapi/routes.js';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
const document = openapiDocument(version) as any;

describe('the OpenAPI document', () => {
  it('has one operation per route of the table, each with an id, a success answer and its failures', () => {
    const operations = Object.values<any>(document.paths).flatMap((item) => ['get', 'post', 'put', 'delete'].filter((m) => item[m]).map((m) => item[m]));
    expect(operations).toHaveLength(ROUTES.length);
    expect(new Set(operations.map((op) => op.operationId)).size).toBe(ROUTES.length);
    for (const op of operations) expect(Object.keys(op.responses).some((s) => s.startsWith('2')), op.operationId).toBe(true);
    expect(Object.keys(document.webhooks).sort()).toEqual(['checkoutPayment', 'order', 'rampPayment']);
  });

  it('renders stellarAmount as what a caller may send: a positive number, or a decimal string of at most 7 places', () => {
    expect(jsonSchema(stellarAmount, 'input')).toEqual({
      anyOf: [{ type: 'number', exclusiveMinimum: 0 }, { type: 'string', pattern: '^\\d{1,15}(\\.\\d{1,7})?$' }],
    });
    const amount = document.paths['/transactions/deposit/interactive'].post.requestBody.content['application/json'].schema.properties.amount;
    expect(amount.anyOf[1].pattern).toBe('^\\d{1,15}(\\.\\d{1,7})?$');
  });

  it('renders a Date the SDK sends as ISO 8601 as a date-time string', () => {
    expect(jsonSchema(z.date(), 'input')).toEqual({ type: 'string', format: 'date-time' });
    const from = document.paths['/api/v1/developer/transactions'].get.parameters.find((p: any) => p.name === 'from');
    expect(from.schema.anyOf[0]).toEqual({ type: 'string', format: 'date-time' });
  });

  it("describes SEP-10's answers with the schemas AnchorClient reads: network_passphrase optional, as SEP-10 has it", () => {
    const auth = document.paths['/auth'];
    const challenge = auth.get.responses['200'].content['application/json'].schema;
    expect(challenge).toEqual(jsonSchema(AnchorChallengeSchema, 'output'));
    expect(challenge.required).toEqual(['transaction']);
    expect(Object.keys(challenge.properties)).toEqual(['transaction', 'network_passphrase']);
    expect(auth.post.responses['200'].content['application/json'].schema).toEqual(jsonSchema(AnchorTokenSchema, 'output'));
  });

  it('renders an open enum as its known values or any other string', () => {
    expect(jsonSchema(openEnum(['a', 'b']), 'output')).toEqual({ anyOf: [{ type: 'string', enum: ['a', 'b'] }, { type: 'string' }] });
  });

  it('documents request bodies strictly (input side) and answers leniently (output side)', () => {
    const register = document.paths['/api/v1/merchant/register'].post;
    expect(register.requestBody.content['application/json'].schema.additionalProperties).toBe(false);
    expect(register.responses['201'].content['application/json'].schema.properties.data.additionalProperties).toEqual({});
  });
});
