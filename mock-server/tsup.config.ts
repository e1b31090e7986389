import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts', 'src/cli.ts', 'src/client.ts'],
  format: ['esm'],
  target: 'node22',
  dts: { entry: ['src/index.ts', 'src/client.ts'] },
  sourcemap: true,
  clean: true,
  splitting: true,
});
