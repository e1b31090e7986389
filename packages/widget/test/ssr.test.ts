import { execFileSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DIST_ENTRY, ensureBuilt } from './helpers/dist.js';

describe('server-side rendering', () => {
  it('imports the built module in plain Node without throwing, and defines no element there', () => {
    ensureBuilt();
    // A fresh Node process resolves `lit-html` as a server framework would (its `node` export).
    const script = `
      const widget = await import(${JSON.stringify(pathToFileURL(DIST_ENTRY).href)});
      console.log(JSON.stringify({
        tag: widget.TAG_NAME,
        cls: typeof widget.RampWidget,
        defined: globalThis.customElements?.get('ramp-widget') !== undefined,
      }));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(JSON.parse(out.trim().split('\n').pop()!)).toEqual({ tag: 'ramp-widget', cls: 'function', defined: false });
  });
});
