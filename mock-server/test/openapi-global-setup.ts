/**
 * vitest globalSetup of the contract recording (test/openapi-recorder.ts): with
 * SIKARAMP_CONTRACT_DIR set, the folder starts empty, and once every project has run the
 * answers recorded there are validated against the OpenAPI document; a problem fails the run,
 * and so does a run that recorded no answer of a documented operation (the recorder broken).
 */
import { rmSync } from 'node:fs';
import { ANSWERS_PER_STATUS, checkAnswers, describeProblems } from '../scripts/openapi-check.js';

export default function setup() {
  const dir = process.env.SIKARAMP_CONTRACT_DIR;
  if (!dir) return;
  rmSync(dir, { recursive: true, force: true });
  return async () => {
    const { validated, other, problems } = await checkAnswers(dir);
    console.log(
      `OpenAPI contract: ${validated} answers of the mock validated, the first ${ANSWERS_PER_STATUS} of each (method, route, status) in each test file ` +
        `(${other} of /_mock and the pages not documented)`,
    );
    if (problems.size > 0) throw new Error(`OpenAPI contract: answers not as documented (operation, status: first schema error):\n${describeProblems(problems)}`);
    if (validated === 0) throw new Error(`OpenAPI contract: no answer of a documented operation was recorded in ${dir}: test/openapi-recorder.ts no longer sees the mock's answers`);
  };
}
