import { describe, expect, it } from 'vitest';
import { bundlePage, gzipSize } from './helpers/dist.js';

/** The budget CI holds us to: 8.5 KB (of 1024 bytes), minified and gzipped, Lit included. */
const BUDGET_BYTES = 8.5 * 1024;

describe('size', () => {
  it('keeps what every page downloads (component and Lit) within 8.5 KB gzipped', async () => {
    const bundle = await bundlePage();
    const eager = gzipSize(bundle, bundle.eager);
    const freighter = gzipSize(bundle, bundle.lazy);
    console.log(`[size] <ramp-widget> with Lit: ${eager} B gzip (${bundle.eager.join(' + ')}); Freighter chunk: ${freighter} B gzip`);
    expect(eager).toBeLessThanOrEqual(BUDGET_BYTES);
  });

  it('leaves Freighter out of the eager download, in a chunk of its own', async () => {
    const bundle = await bundlePage();
    const text = (names: string[]) => names.map((n) => new TextDecoder().decode(bundle.files.get(n))).join('\n');
    expect(bundle.lazy).toHaveLength(1);
    expect(text(bundle.lazy)).toContain('FREIGHTER_EXTERNAL_MSG_REQUEST');
    expect(text(bundle.eager)).not.toContain('FREIGHTER_EXTERNAL_MSG_REQUEST');
  });
});
