/**
 * Writes the OpenAPI 3.1 document of src/openapi/ (routes.ts, document.ts) to dist/openapi.json,
 * shipped as `@sikaramp/sdk/openapi.json`; run by `build` after tsup (which empties dist/).
 * `openapiJson()` gives the same text to the mock server's build (mock-server/scripts/openapi.ts).
 *
 * The sources are bundled in memory with esbuild (zod included) and imported from a data URL,
 * so node runs them as they are, with their `.js` import specifiers.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = new URL('../', import.meta.url);

/** The document as JSON text (2-space indented, one trailing newline). */
export async function openapiJson(): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('src/openapi/document.ts', ROOT))],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]!.text;
  const { openapiDocument } = (await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`)) as {
    openapiDocument(version: string): object;
  };
  const { version } = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as { version: string };
  return `${JSON.stringify(openapiDocument(version), null, 2)}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  mkdirSync(new URL('dist/', ROOT), { recursive: true });
  writeFileSync(new URL('dist/openapi.json', ROOT), await openapiJson());
}
