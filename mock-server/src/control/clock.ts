import { http, HttpResponse } from 'msw';
import { z } from 'zod';
import { iso } from '../clock.js';
import type { MockContext } from '../context.js';
import { readBody } from '../http/body.js';
import { route } from '../http/respond.js';

/** `GET /_mock/clock` -> `{now}`; `POST /_mock/clock/advance {seconds}` -> `{now}`. */
export function clockControl(ctx: MockContext) {
  const api = {
    /** Current mock time, ISO 8601. */
    now: () => iso(ctx.clock.now()),
    /** Moves mock time forward, running whatever falls due (expiries, retries, auto-advance). */
    advance: async (seconds: number) => {
      await ctx.clock.advance(seconds);
      return iso(ctx.clock.now());
    },
  };
  const base = ctx.urls.control;
  const handlers = [
    http.get(`${base}/clock`, () => HttpResponse.json({ now: api.now(), kind: ctx.clock.kind })),
    http.post(
      `${base}/clock/advance`,
      route(ctx, 'envelope', async ({ request }) => {
        const { seconds } = await readBody(request, z.object({ seconds: z.number().nonnegative().max(100 * 365 * 24 * 3600, 'must be at most 100 years') }));
        return HttpResponse.json({ now: await api.advance(seconds) });
      }),
    ),
  ];
  return { api, handlers };
}
