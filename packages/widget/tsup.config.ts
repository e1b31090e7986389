import { defineConfig } from 'tsup';

export default defineConfig({
  // freighter.ts is its own file, loaded by a dynamic import that stays one (see freighter.ts).
  entry: ['src/index.ts', 'src/freighter.ts'],
  format: ['esm'],
  target: 'es2022',
  platform: 'browser',
  dts: { entry: 'src/index.ts' },
  sourcemap: true,
  clean: true,
  // Each file self-contained: a chunk shared by the two would be loaded with index.js.
  splitting: false,
  external: ['./freighter.js'],
  noExternal: ['@stellar/freighter-api'],
});
