/**
 * vitest globalSetup of the contract recording (test/openapi-recorder.ts): with
 * SIKARAMP_CONTRACT_DIR set, the folder starts empty, and once every project has run the
 * answers recorded there are validated against the OpenAPI document; a problem fails the run.
 */
import { rmSync } from 'node:fs';
import { checkAnswers } from '../scripts/openapi-check.js';

export default function setup() {
  const dir = process.env.SIKARAMP_CONTRACT_DIR;
  if (!dir) return;
  rmSync(dir, { recursive: true, force: true });
  return async () => {
    const { validated, other, problems } = await checkAnswers(dir);
    console.log(`OpenAPI contract: ${validated} answers of the mock validated (${other} of /_mock and the pages not documented)`);
    if (problems.size > 0) {
      throw new Error(`OpenAPI contract: answers not as documented:\n${[...problems].map(([problem, count]) => `  ${count}x ${problem}`).join('\n')}`);
    }
  };
}
