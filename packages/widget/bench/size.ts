/**
 * Issue 17's widget row: what a page downloads for `<ramp-widget>` (the built package bundled by
 * esbuild, minified, split so that Freighter stays a lazy chunk; gzip -9), beside the peers'
 * figures measured the same way. The same bundle as test/size.test.ts, which holds the budget.
 */
import { bundlePage, gzipSize } from '../test/helpers/dist.ts';

/** The peers' eager downloads, gzipped, as issue 17 gives them. */
const PEERS = { Transak: 7_593, 'Ramp Network': 8_352 };

const bundle = await bundlePage();
const eager = gzipSize(bundle, bundle.eager);
const rows = [
  ['<ramp-widget>, lit-html included, Freighter excluded', `${eager} B`, '1.00x'],
  ...Object.entries(PEERS).map(([name, bytes]) => [name, `${bytes} B`, `${(bytes / eager).toFixed(2)}x`]),
  ['Freighter chunk, loaded on "Connect wallet"', `${gzipSize(bundle, bundle.lazy)} B`, ''],
];
console.log(`@sikaramp/widget bench, node ${process.version}, ${new Date().toISOString()}\n`);
console.log('## What a page downloads (esbuild, minified, gzip -9)\n');
console.log('| bundle | gzipped | vs <ramp-widget> |\n|---|---|---|');
for (const row of rows) console.log(`| ${row.join(' | ')} |`);
