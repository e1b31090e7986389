/**
 * `@sikaramp/widget` for the page, bundled once at start-up with esbuild, as your own bundler
 * (Vite, webpack, Next.js) would do it: `import '@sikaramp/widget'` in your front-end code.
 * Code-split, so that the Freighter chunk loads only when a customer connects a wallet.
 */
import { build } from 'esbuild';

/** Output files by name; `ramp-widget.js` is the entry. */
export async function bundleWidget(): Promise<Map<string, Uint8Array>> {
  const result = await build({
    stdin: { contents: "import '@sikaramp/widget';", resolveDir: import.meta.dirname, loader: 'js' },
    entryNames: 'ramp-widget',
    bundle: true,
    minify: true,
    splitting: true,
    format: 'esm',
    target: 'es2022',
    platform: 'browser',
    outdir: '/widget',
    write: false,
    logLevel: 'silent',
  });
  return new Map(result.outputFiles.map((file) => [file.path.replace(/^.*\//, ''), file.contents]));
}
