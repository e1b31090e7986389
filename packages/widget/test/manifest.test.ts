import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { DIST_ENTRY, ensureBuilt, PACKAGE_DIR } from './helpers/dist.js';

const read = (path: string) => readFileSync(join(PACKAGE_DIR, path), 'utf8');
const all = (text: string, pattern: RegExp) => [...new Set([...text.matchAll(pattern)].map((m) => m[1]!))].sort();

let manifest: any;
let element: any;
let widget: any;
beforeAll(async () => {
  ensureBuilt();
  manifest = JSON.parse(read('dist/custom-elements.json'));
  element = manifest.modules.flatMap((m: any) => m.declarations).find((d: any) => d.customElement);
  // The built module, in Node: its class is defined there (never constructed), as in server rendering.
  widget = await import(pathToFileURL(DIST_ENTRY).href);
});

describe('custom-elements.json', () => {
  it('is shipped: package.json points to it and packs it', () => {
    const pkg = JSON.parse(read('package.json'));
    // In dist/, which the package ships (the tarball holds dist/ and package.json only).
    expect(pkg.customElements).toBe('dist/custom-elements.json');
    expect(pkg.files).toEqual(['dist']);
    expect(manifest.schemaVersion).toBe('1.0.0');
  });

  it('describes <ramp-widget>, defined by the module the package exports', () => {
    expect(element).toMatchObject({ name: 'RampWidget', tagName: widget.TAG_NAME, superclass: { name: 'HTMLElement' } });
    const [module] = manifest.modules;
    expect(module.path).toBe('dist/index.js');
    expect(module.exports).toContainEqual({ kind: 'custom-element-definition', name: 'ramp-widget', declaration: { name: 'RampWidget', module: 'dist/index.js' } });
    expect(module.exports.filter((e: any) => e.kind === 'js').map((e: any) => e.name).sort()).toEqual(
      Object.keys(widget).filter((name) => name !== 'default').sort(),
    );
  });

  it('lists the attributes the element observes, each with the property it sets', () => {
    expect(element.attributes.map((a: any) => a.name).sort()).toEqual([...widget.RampWidget.observedAttributes].sort());
    for (const attribute of element.attributes) {
      // The property is the element's accessor, and the manifest's field says it is that attribute's.
      let accessor: PropertyDescriptor | undefined;
      for (let proto = widget.RampWidget.prototype; proto && !accessor; proto = Object.getPrototypeOf(proto)) {
        accessor = Object.getOwnPropertyDescriptor(proto, attribute.fieldName);
      }
      expect(typeof accessor?.set, attribute.name).toBe('function');
      expect(element.members.find((m: any) => m.name === attribute.fieldName).attribute).toBe(attribute.name);
      expect(attribute.description).toBeTruthy();
    }
    expect(element.attributes.find((a: any) => a.name === 'flow')).toMatchObject({ fieldName: 'flow', type: { text: "'buy' | 'sell'" }, default: "'buy'" });
    expect(element.attributes.find((a: any) => a.name === 'allow').default).toBe(JSON.stringify(widget.DEFAULT_ALLOW).replace(/"/g, "'"));
  });

  it('lists the public properties and methods the source declares, and nothing private', () => {
    const source = read('src/ramp-widget.ts');
    const fields = element.members.filter((m: any) => m.kind === 'field');
    expect(fields.map((m: any) => m.name).sort()).toEqual(all(source, /^ {2}declare (\w+)\??:/gm));
    expect(fields.find((m: any) => m.name === 'getSession').type.text).toBe('((request: RampSessionRequest) => Promise<RampSession>) | undefined');
    const methods = element.members.filter((m: any) => m.kind === 'method');
    expect(methods.map((m: any) => m.name).sort()).toEqual(['close', 'open']);
    expect(methods.find((m: any) => m.name === 'open').return.type.text).toBe('Promise<RampResult>');
    expect(JSON.stringify(element)).not.toContain('"#');
  });

  it('lists the events the element fires, typed, as the event map has them', () => {
    const map = read('src/events.ts');
    const names = all(map.slice(map.indexOf('interface RampEventMap')), /^ {2}'(ramp-[a-z]+)':/gm);
    expect(names).toHaveLength(6);
    expect(all(read('src/ramp-widget.ts'), /#emit\('(ramp-[a-z]+)'/g)).toEqual(names);
    expect(element.events.map((e: any) => e.name).sort()).toEqual(names);
    for (const event of element.events) expect(event).toMatchObject({ type: { text: `RampEvent<'${event.name}'>` }, description: expect.any(String) });
  });

  it('lists the CSS parts the template renders and the custom properties the styles read', () => {
    expect(element.cssParts.map((p: any) => p.name).sort()).toEqual(all(read('src/ramp-widget.ts'), /part="(\w+)"/g));
    expect(element.cssProperties.map((p: any) => p.name).sort()).toEqual(all(read('src/ramp-widget.styles.ts'), /var\((--ramp-[\w-]+)/g));
    expect(element.slots).toEqual([{ name: '', description: expect.stringContaining('open button') }]);
  });
});
