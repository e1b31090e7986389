/**
 * A vitest setup file that records the mock's answers when SIKARAMP_CONTRACT_DIR names a
 * folder, for `scripts/openapi-check.ts` to validate against the OpenAPI document. In each test
 * file it keeps the first ANSWERS_PER_STATUS answers of each (method, route, status): every
 * distinct answer the file gets is validated, while the 12,000 identical 200s of a rate-limit
 * test are neither cloned nor written 12,000 times. They are held in memory and written once,
 * one JSON line each (method, the handler's path pattern, URL, status, media type, body of a
 * JSON or text answer, test file and name), when the file has run. Without the variable it does
 * nothing.
 *
 * Only the resolvers `route()` made are recorded, not a handler a test puts before them (so
 * stellar.toml and the SEP-24 and SEP-38 `/info` routes are left to test/openapi-contract.test.ts).
 * Each is wrapped where msw builds its handler (HttpHandler's constructor ends by calling
 * `checkRedundantQueryParameters`), and the wrapper is marked routed too: in-process (msw's
 * `run`) and the standalone server (which calls routed resolvers itself) both answer through it,
 * so recording leaves the server's fast path as it is.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { HttpHandler } from 'msw';
import { afterAll, expect } from 'vitest';
import { DirectAnswer, routedResolvers } from '../src/http/respond.js';
import { ANSWERS_PER_STATUS } from '../scripts/openapi-check.js';

const dir = process.env.SIKARAMP_CONTRACT_DIR;

type Resolver = (info: { request: Request }) => unknown;

/**
 * One test file's recording. msw is loaded once per worker and the mock's modules once per
 * test file, so the constructor is patched once and this is set anew for each file.
 */
interface Recording {
  /** This file's copy of the mock's routed resolvers. */
  routed: WeakSet<object>;
  /** Records a Response, or the standalone server's DirectAnswer, of this file's modules. */
  record(request: Request, path: string, response: unknown): void;
}
const KEY = Symbol.for('sikaramp.contract.recording');
const PATCHED = Symbol.for('sikaramp.contract.patched');
const global = globalThis as { [KEY]?: Recording };

if (dir) {
  mkdirSync(dir, { recursive: true });
  const prototype = HttpHandler.prototype as unknown as { checkRedundantQueryParameters(): void; [PATCHED]?: true };
  if (typeof prototype.checkRedundantQueryParameters !== 'function') {
    throw new Error('openapi-recorder: msw no longer calls HttpHandler#checkRedundantQueryParameters; record the answers elsewhere');
  }
  if (!prototype[PATCHED]) {
    const check = prototype.checkRedundantQueryParameters;
    prototype.checkRedundantQueryParameters = function (this: HttpHandler) {
      check.call(this);
      const recording = global[KEY];
      const handler = this as unknown as { resolver: Resolver; info: { path: unknown } };
      const { resolver, info } = handler;
      if (!recording?.routed.has(resolver) || typeof info.path !== 'string') return;
      const path = info.path;
      const recorded: Resolver = async (args) => {
        const response = await resolver(args);
        recording.record(args.request, path, response);
        return response;
      };
      recording.routed.add(recorded);
      handler.resolver = recorded;
    };
    prototype[PATCHED] = true;
  }

  const counts = new Map<string, number>();
  const lines: Promise<string>[] = [];
  global[KEY] = {
    routed: routedResolvers,
    record(request, path, response) {
      if (!(response instanceof Response || response instanceof DirectAnswer)) return;
      const key = `${request.method} ${path} ${response.status}`;
      const seen = counts.get(key) ?? 0;
      if (seen >= ANSWERS_PER_STATUS) return;
      counts.set(key, seen + 1);
      const contentType = (response instanceof DirectAnswer ? response.headers['content-type'] : response.headers.get('content-type')) ?? '';
      const { testPath, currentTestName } = expect.getState();
      const record = {
        method: request.method, path, url: request.url, status: response.status, contentType,
        test: `${testPath ? relative(process.cwd(), testPath) : '?'}${currentTestName ? ` > ${currentTestName}` : ''}`,
      };
      // Only JSON and text bodies are read (a page's stream would never end); the others are
      // still recorded, so an operation answering with an undocumented media type is caught.
      const body = !/^(application\/json|text\/plain)/.test(contentType)
        ? Promise.resolve('')
        : response instanceof DirectAnswer
          ? Promise.resolve(response.text)
          : response.clone().text();
      lines.push(body.then((text) => JSON.stringify({ ...record, body: text })));
    },
  };
  afterAll(async () => {
    const written = await Promise.all(lines);
    if (written.length > 0) appendFileSync(join(dir, `answers-${process.pid}.jsonl`), `${written.join('\n')}\n`);
  });
}
