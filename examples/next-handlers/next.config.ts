import type { NextConfig } from 'next';

const config: NextConfig = {
  // The test's build also serves app/webhooks/reserialised/route.mistake.ts.
  pageExtensions: process.env.SIKARAMP_EXAMPLE_TEST === '1' ? ['ts', 'tsx', 'mistake.ts'] : ['ts', 'tsx'],
  // `next build` type-checks the app; the tests are checked by `pnpm typecheck`.
  typescript: { tsconfigPath: 'tsconfig.next.json' },
};

export default config;
