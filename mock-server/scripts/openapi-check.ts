/**
 * Validates the answers `test/openapi-recorder.ts` recorded against the OpenAPI document:
 *   SIKARAMP_CONTRACT_DIR=/tmp/contract pnpm vitest run --project mock-server
 *   node mock-server/scripts/openapi-check.ts /tmp/contract
 * Each answer of a documented operation must have a documented status, media type and body
 * (Ajv, JSON Schema 2020-12). Answers of other routes (`/_mock`, the pages) are counted apart.
 * Exits 1 on any problem, listing each kind once with how often it happened.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

const SDK_SCRIPT = new URL('../../packages/sdk/scripts/openapi.ts', import.meta.url).href;

interface Answer {
  method: string;
  /** The msw handler's pattern, e.g. `http://127.0.0.1:4010/anchor/customer/:id`. */
  path: string;
  url: string;
  status: number;
  contentType: string;
  body: string;
}

/** Path prefixes (the end of a handler pattern before the documented path) that are not a documented server. */
const NOT_SERVERS = /\/_mock$|\/_mock\/|\/interactive(\/api)?$|\/pay$/;

export async function checkAnswers(dir: string) {
  const { openapiJson } = (await import(SDK_SCRIPT)) as { openapiJson(): Promise<string> };
  const document = JSON.parse(await openapiJson());
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats.default(ajv);
  ajv.addSchema(document, 'openapi.json');
  const pointer = (...parts: string[]) => `openapi.json#/${parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`;
  // Longest documented path first, so `/sep38/info` wins over `/info`.
  const paths = Object.keys(document.paths).sort((a, b) => b.length - a.length);
  const problems = new Map<string, number>();
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
      const key = `${answer.method} ${path} ${answer.status}`;
      const note = (problem: string) => problems.set(`${key}: ${problem}`, (problems.get(`${key}: ${problem}`) ?? 0) + 1);
      const response = operation.responses[answer.status];
      if (!response) {
        note(`status not documented (${answer.body.slice(0, 160)})`);
        continue;
      }
      const [mediaType] = Object.keys(response.content);
      if (!answer.contentType.startsWith(mediaType!)) {
        note(`${answer.contentType}, documented ${mediaType}`);
        continue;
      }
      const body = mediaType === 'application/json' ? JSON.parse(answer.body) : answer.body;
      const validate = ajv.getSchema(pointer('paths', path, answer.method.toLowerCase(), 'responses', String(answer.status), 'content', mediaType!, 'schema'))!;
      if (!validate(body)) note(ajv.errorsText(validate.errors));
    }
  }
  return { validated, other, problems };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2] ?? process.env.SIKARAMP_CONTRACT_DIR;
  if (!dir) throw new Error('usage: node mock-server/scripts/openapi-check.ts <folder of recorded answers>');
  const { validated, other, problems } = await checkAnswers(dir);
  console.log(`${validated} answers of documented operations validated against the OpenAPI document; ${other} of other routes not checked`);
  for (const [problem, count] of problems) console.log(`  ${count}x ${problem}`);
  process.exitCode = problems.size > 0 ? 1 : 0;
}
