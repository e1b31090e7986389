/**
 * The build step that turns a page's browser code into the one inline script it sends
 * (scripts/browser-scripts.ts): what the server imports is the bundle of the page's current
 * browser code, hashed the way a CSP checks it, and nothing that would break out of the element.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleBrowserEntry } from '../scripts/browser-scripts.js';
import { hash, script } from '../src/handlers/interactive/browser.generated.js';

const dir = mkdtempSync(join(tmpdir(), 'browser-scripts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function entry(name: string, code: string): string {
  const file = join(dir, `${name}.ts`);
  writeFileSync(file, code);
  return file;
}

describe('browser scripts', () => {
  it('the interactive page sends the bundle of its browser code as it is now, with its SHA-256', async () => {
    const built = await bundleBrowserEntry(fileURLToPath(new URL('../src/handlers/interactive/browser/main.ts', import.meta.url)));
    expect(script).toBe(built.script);
    expect(hash).toBe(createHash('sha256').update(script, 'utf8').digest('base64'));
    expect(built.hash).toBe(hash);
    // One minified IIFE that needs no module loader.
    expect(script).toMatch(/^"use strict";\(\(\)=>\{/);
    expect(script).not.toMatch(/\bimport\b|\bexport\b|\n/);
  });

  it('bundles what an entry imports, type-only imports erased', async () => {
    entry('greeting', "export const greet = (name: string): string => 'Hello ' + name;\nexport interface Unused { a: number }\n");
    const main = entry('main', "import { greet, type Unused } from './greeting.js';\nconst u: Unused = { a: 1 };\ndocument.title = greet('Ama') + u.a;\n");
    const { script: text } = await bundleBrowserEntry(main);
    const doc = { title: '' };
    new Function('document', text)(doc);
    expect(doc.title).toBe('Hello Ama1');
  });

  it('keeps a "</script>" in a string from ending the element, and refuses "<!--"', async () => {
    const closing = await bundleBrowserEntry(entry('closing', "document.title = '</script><p>';\n"));
    expect(closing.script).not.toMatch(/<\/script/i);
    await expect(bundleBrowserEntry(entry('comment', "document.title = '<!--';\n"))).rejects.toThrow(/contains "<\/script" or "<!--"/);
  });
});
