import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    'webhooks/index': 'src/webhooks/index.ts',
    // The same API on node:crypto, for the node, bun and deno export conditions.
    'webhooks/node': 'src/webhooks/node.ts',
    'webhooks/sqlite': 'src/webhooks/sqlite.ts',
    'anchor/index': 'src/anchor/index.ts',
  },
  format: ['esm', 'cjs'],
  target: 'es2022',
  platform: 'neutral',
  dts: true,
  sourcemap: true,
  clean: true,
  splitting: true,
  treeshake: true,
  // Deno resolves only `node:crypto`, not `crypto`.
  removeNodeProtocol: false,
  external: [/^node:/],
});
