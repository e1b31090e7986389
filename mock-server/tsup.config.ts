import { defineConfig } from 'tsup';
import { writeBrowserScripts } from './scripts/browser-scripts.ts';
import { writeOpenapiModule } from './scripts/openapi.ts';

export default defineConfig(async () => {
  // The pages' browser code, bundled and hashed into src/handlers/*/browser.generated.ts first.
  await writeBrowserScripts();
  // The SDK's OpenAPI document, into src/control/openapi.generated.ts.
  await writeOpenapiModule();
  return {
    entry: ['src/index.ts', 'src/browser.ts', 'src/cli.ts', 'src/client.ts'],
    format: ['esm'],
    target: 'node22',
    dts: { entry: ['src/index.ts', 'src/client.ts'] },
    sourcemap: true,
    clean: true,
    splitting: true,
  };
});
