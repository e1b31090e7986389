import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', 'webhooks/index': 'src/webhooks/index.ts', 'anchor/index': 'src/anchor/index.ts' },
  format: ['esm', 'cjs'],
  target: 'es2022',
  platform: 'neutral',
  dts: true,
  sourcemap: true,
  clean: true,
  splitting: true,
  treeshake: true,
});
