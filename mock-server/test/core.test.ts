import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, MODES, type MockEnv } from './helpers/env.js';

describe.each(MODES)('mock core, %s', (_name, start) => {
  let env: MockEnv;
  beforeAll(async () => {
    env = await start({ seed: 7, clockStart: '2026-01-01T00:00:00Z' });
  });
  afterAll(() => env.close());

  it('reports and advances the manual clock over /_mock/clock', async () => {
    const before = await call(env, 'GET', '/_mock/clock');
    expect(before.status).toBe(200);
    expect(before.body).toEqual({ now: '2026-01-01T00:00:00.000Z', kind: 'manual' });
    const after = await call(env, 'POST', '/_mock/clock/advance', { body: { seconds: 90 } });
    expect(after.body).toEqual({ now: '2026-01-01T00:01:30.000Z' });
  });

  it('refuses a negative or non-numeric advance with VALIDATION_ERROR', async () => {
    for (const body of [{ seconds: -1 }, { seconds: '10' }, {}]) {
      const res = await call(env, 'POST', '/_mock/clock/advance', { body });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
    const bad = await call(env, 'POST', '/_mock/clock/advance', { rawBody: '{oops', headers: { 'content-type': 'application/json' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toEqual({ code: 'VALIDATION_ERROR', message: 'request body is not valid JSON' });
    expect(bad.body.meta.request_id).toMatch(/^req_/);
  });

  it('answers an unknown route with 404 NOT_FOUND', async () => {
    const res = await call(env, 'GET', '/api/v1/nothing-here');
    expect(res.status).toBe(404);
  });
});
