/**
 * How dist/custom-elements.json is made from the source (tsup runs the analyzer after each build,
 * see tsup.config.ts). The analyzer reads the class's JSDoc (@fires, @csspart, @cssproperty,
 * @slot) and its fields; this plugin adds what it cannot see in our code, all read from the
 * source too: the attributes and their defaults (the `PROPS` table behind `observedAttributes`),
 * the tag name (`TAG_NAME`), and the one module the package ships, dist/index.js.
 */
const MODULE = 'dist/index.js';

function rampWidget() {
  const source = { props: {}, defaults: {}, consts: {}, tag: '' };
  return {
    name: 'sikaramp-ramp-widget',
    analyzePhase({ ts, node }) {
      if (!ts.isVariableDeclaration(node) || !node.initializer) return;
      const name = node.name.getText();
      const value = node.initializer;
      // PROPS is `{ attribute: [prop, default?, Number?] } as const`.
      if (name == 'PROPS') {
        for (const { name: attribute, initializer } of value.expression.properties) {
          const [prop, initial] = initializer.elements;
          source.props[prop.text] = attribute.text;
          if (initial && initial.getText() != 'undefined') source.defaults[prop.text] = initial.getText();
        }
      } else if (name == 'TAG_NAME' && ts.isStringLiteral(value)) source.tag = value.text;
      else if (ts.isStringLiteral(value)) source.consts[name] = value.getText();
    },
    packageLinkPhase({ customElementsManifest: manifest }) {
      const modules = manifest.modules;
      const element = modules.flatMap((m) => m.declarations ?? []).find((d) => d.customElement);
      const constant = (name) => modules.flatMap((m) => m.declarations ?? []).find((d) => d.name == name);
      element.tagName = source.tag;
      element.superclass = { name: 'HTMLElement', package: 'global:' };
      // The API only: private (#) and protected members (the render hooks) are not, nor the event
      // the analyzer sees in #emit's dispatchEvent.
      element.members = element.members.filter((m) => !m.privacy && !m.name.startsWith('#'));
      element.events = element.events.filter((e) => e.description);
      for (const member of element.members) {
        const type = member.type?.text;
        // A function type that may be absent: parenthesized, or `| undefined` reads as its return's.
        if (type?.includes('=>') && type.endsWith(' | undefined')) member.type.text = `(${type.slice(0, -12)}) | undefined`;
        const value = source.defaults[member.name];
        if (value) member.default = source.consts[value] ?? value;
        if (source.props[member.name]) member.attribute = source.props[member.name];
      }
      element.attributes = element.members
        .filter((m) => m.attribute)
        .map(({ attribute, name, type, default: value, description }) => ({ name: attribute, fieldName: name, type, default: value, description }));
      // One module, as the package ships it: the element's declarations and the index's exports.
      const declarations = ['RampWidget', 'DEFAULT_ALLOW', 'TAG_NAME'].map(constant);
      manifest.modules = [
        {
          kind: 'javascript-module',
          path: MODULE,
          declarations,
          exports: [
            ...declarations.map(({ name }) => ({ kind: 'js', name, declaration: { name, module: MODULE } })),
            { kind: 'custom-element-definition', name: source.tag, declaration: { name: 'RampWidget', module: MODULE } },
          ],
        },
      ];
    },
  };
}

export default {
  globs: ['src/index.ts', 'src/props.ts', 'src/ramp-widget.ts'],
  outdir: 'dist',
  // package.json says "customElements" itself: the analyzer would rewrite the whole file.
  packagejson: false,
  plugins: [rampWidget()],
};
