import { describe, expect, it } from 'vitest';
import { bundlePage, gzipSize } from './helpers/dist.js';

/**
 * The budget CI holds us to, bytes minified and gzipped, Lit included: the last measured figure
 * (8,246 B, once the element was built on ReactiveElement and lit-html rather than LitElement)
 * rounded up to the next 100 B, so that a regression fails.
 * Lower it when you save.
 */
const BUDGET_BYTES = 8_300;

describe('size', () => {
  it('keeps what every page downloads (component and Lit) within 8,300 B gzipped', async () => {
    const bundle = await bundlePage();
    const eager = gzipSize(bundle, bundle.eager);
    const freighter = gzipSize(bundle, bundle.lazy);
    console.log(`[size] <ramp-widget> with Lit: ${eager} B gzip (${bundle.eager.join(' + ')}); Freighter chunk: ${freighter} B gzip`);
    expect(eager).toBeLessThanOrEqual(BUDGET_BYTES);
  });

  it('leaves Freighter out of the eager download, in a chunk of its own, and shares no chunk with it', async () => {
    const bundle = await bundlePage();
    // One file: no chunk of bundler helpers that the entry would load too (see src/freighter.ts).
    expect(bundle.eager).toEqual(['ramp-widget.js']);
    const text = (names: string[]) => names.map((n) => new TextDecoder().decode(bundle.files.get(n))).join('\n');
    expect(bundle.lazy).toHaveLength(1);
    expect(text(bundle.lazy)).toContain('FREIGHTER_EXTERNAL_MSG_REQUEST');
    expect(text(bundle.eager)).not.toContain('FREIGHTER_EXTERNAL_MSG_REQUEST');
  });
});
