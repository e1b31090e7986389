/**
 * TypeDoc plugin: names each entry-point module by the specifier a merchant imports it with
 * (`@sikaramp/sdk/webhooks`), not by its path in this repository (`packages/sdk/src/webhooks`).
 * The name comes from the nearest package.json and the file's path under `src/`.
 */
import { Converter, ReflectionKind } from 'typedoc';

/** @param {import('typedoc').Application} app */
export function load(app) {
  app.converter.on(Converter.EVENT_CREATE_DECLARATION, (context, reflection) => {
    if (!reflection.kindOf(ReflectionKind.Module)) return;
    const id = context.project.getSymbolIdFromReflection(reflection);
    if (!id) return;
    const subpath = id.packagePath
      .replace(/^src\//, '')
      .replace(/(^|\/)index\.ts$/, '')
      .replace(/\.ts$/, '')
      // The framework adapters are published as `handlers/<framework>` (packages/sdk/tsup.config.ts).
      .replace(/^handlers\/adapters\//, 'handlers/');
    reflection.name = subpath ? `${id.packageName}/${subpath}` : id.packageName;
  });
}
