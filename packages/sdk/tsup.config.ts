import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'tsup';

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    'webhooks/index': 'src/webhooks/index.ts',
    // The same API on node:crypto, for the node, bun and deno export conditions.
    'webhooks/node': 'src/webhooks/node.ts',
    'webhooks/dedupe': 'src/webhooks/dedupe.ts',
    'webhooks/sqlite': 'src/webhooks/sqlite.ts',
    // Signing for merchants' tests, apart from the verifiers, on Web Crypto and on node:crypto as above.
    'webhooks/testing': 'src/webhooks/testing.ts',
    'webhooks/testing-node': 'src/webhooks/testing-node.ts',
    'redis/index': 'src/redis/index.ts',
    'anchor/index': 'src/anchor/index.ts',
    // The adapters are entries of their own, so that `@sikaramp/sdk/handlers` names no framework.
    'handlers/index': 'src/handlers/index.ts',
    'handlers/express': 'src/handlers/adapters/express.ts',
    'handlers/hono': 'src/handlers/adapters/hono.ts',
    'handlers/fastify': 'src/handlers/adapters/fastify.ts',
    'handlers/next': 'src/handlers/adapters/next.ts',
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
  // The version the User-Agent carries (src/core/version.ts).
  define: { __SIKARAMP_SDK_VERSION__: JSON.stringify(version) },
  esbuildPlugins: [
    {
      // src/anchor/stellar.ts loads @stellar/stellar-sdk with top-level await, which CommonJS lacks.
      // esbuild emits ESM for both formats here (rollup makes the CommonJS): tell them by extension.
      name: 'anchor-stellar-cjs',
      setup(build) {
        if (build.initialOptions.outExtension?.['.js'] !== '.cjs') return;
        build.onResolve({ filter: /^\.\/stellar\.js$/ }, (args) =>
          args.importer.endsWith(join('src', 'anchor', 'index.ts')) ? { path: join(args.resolveDir, 'stellar.cjs.ts') } : undefined,
        );
      },
    },
  ],
});
