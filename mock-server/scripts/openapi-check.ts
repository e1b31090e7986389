/**
 * Validates the answers `test/openapi-recorder.ts` recorded against the OpenAPI document:
 *   SIKARAMP_CONTRACT_DIR=/tmp/contract pnpm vitest run --project mock-server
 *   node mock-server/scripts/openapi-check.ts /tmp/contract
 * Each answer of a documented operation must have a documented status, media type and body
 * (Ajv, JSON Schema 2020-12). Answers of other routes (`/_mock`, the pages) are counted apart.
 * Exits 1 on any problem, listing each kind once (operation, status, the first schema error)
 * with how often it happened and where it was first seen.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

const SDK_SCRIPT = new URL('../../packages/sdk/scripts/openapi.ts', import.meta.url).href;

/** How many answers of each (method, route, status) the recorder keeps per test file. */
export const ANSWERS_PER_STATUS = 20;

interface Answer {
  method: string;
  /** The msw handler's pattern, e.g. `http://127.0.0.1:4010/anchor/customer/:id`. */
  path: string;
  url: string;
  status: number;
  contentType: string;
  body: string;
  /** The test file and test that got the answer. */
  test: string;
}

/** One kind of problem: how often it happened, and the first answer that had it. */
interface Problem {
  count: number;
  test: string;
  url: string;
}

/** Path prefixes (the end of a handler pattern before the documented path) that are not a documented server. */
const NOT_SERVERS = /\/_mock$|\/_mock\/|\/interactive(\/api)?$|\/pay$/;

export async function checkAnswers(dir: string) {
  const { openapiJson } = (await import(SDK_SCRIPT)) as { openapiJson(): Promise<string> };
  const document = JSON.parse(await openapiJson());
  // The first error of each answer is what the report shows.
  const ajv = new Ajv2020({ allErrors: false, strict: false });
  addFormats.default(ajv);
  ajv.addSchema(document, 'openapi.json');
  const pointer = (...parts: string[]) => `openapi.json#/${parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`;
  // Longest documented path first, so `/sep38/info` wins over `/info`.
  const paths = Object.keys(document.paths).sort((a, b) => b.length - a.length);
  const problems = new Map<string, Problem>();
  let validated = 0;
  let other = 0;
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.jsonl'))) {
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n').filter(Boolean)) {
      const answer = JSON.parse(line) as Answer;
      const pattern = answer.path.replace(/:(\w+)/g, '{$1}');
      const path = paths.find((p) => pattern.endsWith(p) && !NOT_SERVERS.test(pattern.slice(0, -p.length)));
      const operation = path && document.paths[path][answer.method.toLowerCase()];
      if (!operation) {
        other++;
        continue;
      }
      validated++;
      const key = `${answer.method} ${path} (${operation.operationId}) ${answer.status}`;
      const note = (problem: string) => {
        const known = problems.get(`${key}: ${problem}`);
        if (known) known.count++;
        else problems.set(`${key}: ${problem}`, { count: 1, test: answer.test, url: answer.url });
      };
      const response = operation.responses[answer.status];
      if (!response) {
        note(`status not documented (${answer.body.slice(0, 160)})`);
        continue;
      }
      const [mediaType] = Object.keys(response.content);
      if (!answer.contentType.startsWith(mediaType!)) {
        note(`media type ${answer.contentType || 'none'}, documented ${mediaType}`);
        continue;
      }
      let body: unknown = answer.body;
      if (mediaType === 'application/json') {
        try {
          body = JSON.parse(answer.body);
        } catch {
          note(`body is not JSON (${answer.body.slice(0, 160)})`);
          continue;
        }
      }
      const validate = ajv.getSchema(pointer('paths', path, answer.method.toLowerCase(), 'responses', String(answer.status), 'content', mediaType!, 'schema'))!;
      if (!validate(body)) note(ajv.errorsText(validate.errors, { dataVar: 'body' }));
    }
  }
  return { validated, other, problems };
}

/** The problems, one line each: operation, status, first error, count, and the first answer's test and URL. */
export function describeProblems(problems: Map<string, Problem>): string {
  return [...problems].map(([problem, { count, test, url }]) => `  ${problem} (${count}x, first in ${test}: ${url})`).join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2] ?? process.env.SIKARAMP_CONTRACT_DIR;
  if (!dir) throw new Error('usage: node mock-server/scripts/openapi-check.ts <folder of recorded answers>');
  const { validated, other, problems } = await checkAnswers(dir);
  console.log(`${validated} answers of documented operations validated against the OpenAPI document; ${other} of other routes not checked`);
  if (problems.size > 0) console.log(describeProblems(problems));
  process.exitCode = problems.size > 0 || validated === 0 ? 1 : 0;
}
