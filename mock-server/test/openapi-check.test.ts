/**
 * The suite-wide contract check (scripts/openapi-check.ts), as the recorder hands it answers:
 * a real answer of the standalone mock validates, and a changed body, an undocumented status
 * or media type is reported with its operation, status, first schema error and the test that got it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkAnswers, describeProblems } from '../scripts/openapi-check.js';
import { startStandalone, type MockEnv } from './helpers/env.js';

describe('the recorded answers checked against the OpenAPI document', () => {
  let env: MockEnv;
  const dir = mkdtempSync(join(tmpdir(), 'sikaramp-contract-'));
  beforeAll(async () => {
    env = await startStandalone();
  });
  afterAll(async () => {
    await env.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('passes a real answer, and names the operation, status and first error of a wrong one', async () => {
    const url = `${env.origin}/api/v1/merchant/register`;
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Shop', legal_name: 'Shop Ltd', email: 'check@shop.example', password: 'a long password' }),
    });
    const body = await response.text();
    const answer = { method: 'POST', path: url, url, status: response.status, contentType: response.headers.get('content-type'), test: 'a.test.ts > real' };
    const changed = JSON.parse(body) as { data: { id: unknown } };
    changed.data.id = 42;
    const lines = [
      { ...answer, body },
      { ...answer, test: 'b.test.ts > changed', body: JSON.stringify(changed) },
      { ...answer, test: 'c.test.ts > teapot', status: 418, body: '{}' },
      { ...answer, test: 'd.test.ts > page', contentType: 'text/html', body: '' },
    ];
    writeFileSync(join(dir, 'answers-1.jsonl'), `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);

    const { validated, other, problems } = await checkAnswers(dir);
    expect(response.status).toBe(201);
    expect({ validated, other }).toEqual({ validated: 4, other: 0 });
    const report = describeProblems(problems).split('\n');
    expect(report).toHaveLength(3);
    expect(report[0]).toMatch(/^ {2}POST \/api\/v1\/merchant\/register \(\w+\) 201: body\/data\/id must be string \(1x, first in b\.test\.ts > changed: http:\/\/127\.0\.0\.1:\d+\/api\/v1\/merchant\/register\)$/);
    expect(report[1]).toMatch(/^ {2}POST \/api\/v1\/merchant\/register \(\w+\) 418: status not documented \(\{\}\) \(1x, first in c\.test\.ts > teapot: /);
    expect(report[2]).toMatch(/^ {2}POST \/api\/v1\/merchant\/register \(\w+\) 201: media type text\/html, documented application\/json \(1x, first in d\.test\.ts > page: /);
  });
});
