/**
 * A vitest setup file that records every answer the mock's handlers give, when
 * SIKARAMP_CONTRACT_DIR names a folder: one JSON line per answer (method, the handler's path
 * pattern, URL, status, media type, body) in a file per worker. `scripts/openapi-check.ts`
 * then validates them against the OpenAPI document. Without the variable it does nothing.
 *
 * Answers are taken where msw hands them over, `RequestHandler.prototype.run`, which in-process
 * (msw/node) and the fixtures use; the standalone server calls the resolvers that `route()`
 * made directly, so that shortcut is turned off here (msw then runs them, with the same answer).
 * Only those routes are recorded: the few answered without `route()` (stellar.toml, SEP-24 and
 * SEP-38 `/info`) are left to test/openapi-contract.test.ts.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { RequestHandler } from 'msw';
import { afterAll } from 'vitest';
import { routedResolvers } from '../src/http/respond.js';

const dir = process.env.SIKARAMP_CONTRACT_DIR;

/**
 * What the patched `run` reads at each call. msw is loaded once per worker and the mock's
 * modules once per test file, so `run` is patched once and this is set anew for each file.
 */
interface Recording {
  /** Whether a resolver is one `route()` made, in this file's copy of the mock. */
  isRouted(resolver: object): boolean;
  /** This file's answers, as JSON lines once their bodies are read. */
  pending: Promise<string>[];
}
const KEY = Symbol.for('sikaramp.contract.recording');
const global = globalThis as { [KEY]?: Recording };

if (dir) {
  mkdirSync(dir, { recursive: true });
  if (!global[KEY]) {
    const run = RequestHandler.prototype.run;
    RequestHandler.prototype.run = async function (this: RequestHandler, args) {
      const result = await run.call(this, args);
      const recording = global[KEY]!;
      const path = (this.info as { path?: unknown }).path;
      const response = result?.response;
      // Only the mock's own routes, not a handler a test put before them.
      if (response && typeof path === 'string' && recording.isRouted((this as unknown as { resolver: object }).resolver)) {
        const contentType = response.headers.get('content-type') ?? '';
        const record = { method: args.request.method, path, url: args.request.url, status: response.status, contentType };
        // Only JSON and text bodies are read (a page's stream would never end).
        if (/^(application\/json|text\/plain)/.test(contentType)) {
          recording.pending.push(response.clone().text().then((body) => JSON.stringify({ ...record, body })));
        }
      }
      return result;
    } as typeof run;
  }
  const recording: Recording = { isRouted: routedResolvers.has.bind(routedResolvers), pending: [] };
  global[KEY] = recording;
  routedResolvers.has = () => false;
  afterAll(async () => {
    const lines = await Promise.all(recording.pending);
    if (lines.length > 0) appendFileSync(join(dir, `answers-${process.pid}.jsonl`), `${lines.join('\n')}\n`);
  });
}
