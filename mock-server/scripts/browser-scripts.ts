/**
 * The browser code of the mock's pages, bundled into the one inline script each page sends.
 *
 * Usage: put a page's browser code under `src/handlers/<page>/browser/`, entry `main.ts`
 * (type-checked against the DOM by tsconfig.browser.json), and import what this writes next to it:
 *   import { script, hash } from './browser.generated.js';
 *   // script: the `<script>` element's text; hash: its base64 SHA-256, for `script-src 'sha256-${hash}'`
 * `bundleBrowserEntry(entry)` bundles any one entry the same way.
 *
 * The generated modules are build output (git ignores them), written before tsc (`typecheck`),
 * before tsup (`build`, `bench`) and when vitest starts (vitest.config.ts), so the server
 * running from source and from dist sends the same text, hashed where it was built.
 * By hand: `node mock-server/scripts/browser-scripts.ts`.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const HANDLERS = fileURLToPath(new URL('../src/handlers/', import.meta.url));

export interface BrowserScript {
  /** The minified script, one IIFE, exactly as it goes between `<script>` and `</script>`. */
  script: string;
  /** Base64 SHA-256 of the script's UTF-8 text, as a CSP `'sha256-…'` source wants it. */
  hash: string;
}

/** Bundles one browser entry (a path) with everything it imports into one minified script. */
export async function bundleBrowserEntry(entry: string): Promise<BrowserScript> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    legalComments: 'none',
    write: false,
    logLevel: 'silent',
  });
  const script = result.outputFiles[0]!.text.trimEnd();
  // Inline in HTML: these would end the element or change how the browser parses it.
  if (/<\/script|<!--/i.test(script)) throw new Error(`${entry}: the bundled script contains "</script" or "<!--"`);
  return { script, hash: createHash('sha256').update(script).digest('base64') };
}

/** Writes `browser.generated.ts` for every `src/handlers/<page>/browser/main.ts`; returns the files written. */
export async function writeBrowserScripts(): Promise<string[]> {
  const written: string[] = [];
  for (const page of readdirSync(HANDLERS)) {
    const entry = `${HANDLERS}${page}/browser/main.ts`;
    if (!existsSync(entry)) continue;
    const { script, hash } = await bundleBrowserEntry(entry);
    const out = `${HANDLERS}${page}/browser.generated.ts`;
    const text = `// Generated from ./browser/main.ts by mock-server/scripts/browser-scripts.ts: do not edit.\nexport const script = ${JSON.stringify(script)};\nexport const hash = ${JSON.stringify(hash)};\n`;
    // Unchanged text is not rewritten, and a new one replaces the old at once: test runs in parallel read it.
    if (existsSync(out) && readFileSync(out, 'utf8') === text) continue;
    writeFileSync(`${out}.${process.pid}.tmp`, text);
    renameSync(`${out}.${process.pid}.tmp`, out);
    written.push(out);
  }
  return written;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await writeBrowserScripts();
