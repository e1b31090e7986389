/**
 * The OpenAPI document of @sikaramp/sdk (packages/sdk/src/openapi/), bundled into the mock as
 * `src/control/openapi.generated.ts`, which `/_mock/openapi.json` serves: the mock needs no
 * run-time dependency on the SDK, and from source and from dist it serves the same document.
 * Written, like the pages' browser scripts, before tsc (`typecheck`), before tsup (`build`)
 * and when vitest starts (vitest.config.ts); git ignores it. By hand: `node mock-server/scripts/openapi.ts`.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const SDK_SCRIPT = new URL('../../packages/sdk/scripts/openapi.ts', import.meta.url).href;
const OUT = fileURLToPath(new URL('../src/control/openapi.generated.ts', import.meta.url));

/** Writes the module when its text changed; returns whether it did. */
export async function writeOpenapiModule(): Promise<boolean> {
  // Imported by URL: the SDK's script belongs to the SDK's project, not to this one's type-check.
  const { openapiJson } = (await import(SDK_SCRIPT)) as { openapiJson(): Promise<string> };
  const document = JSON.stringify(JSON.parse(await openapiJson()));
  const text = `// Generated from packages/sdk/src/openapi/ by mock-server/scripts/openapi.ts: do not edit.\nexport const openapiJson = ${JSON.stringify(document)};\n`;
  if (existsSync(OUT) && readFileSync(OUT, 'utf8') === text) return false;
  // A new text replaces the old at once: test runs in parallel read it.
  writeFileSync(`${OUT}.${process.pid}.tmp`, text);
  renameSync(`${OUT}.${process.pid}.tmp`, OUT);
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await writeOpenapiModule();
