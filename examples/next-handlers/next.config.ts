import type { NextConfig } from 'next';

const config: NextConfig = {
  // Route handlers only. The test's build also serves app/webhooks/reserialised/route.mistake.ts.
  pageExtensions: process.env.SIKARAMP_EXAMPLE_TEST === '1' ? ['ts', 'mistake.ts'] : ['ts'],
  // `next build` type-checks the app; the tests are checked by `pnpm typecheck`.
  typescript: { tsconfigPath: 'tsconfig.next.json' },
};

export default config;
