// test/global-setup.ts (playwright.config.ts: `globalSetup: './test/global-setup.ts'`)
import { startMockServer } from '@sikaramp/mock-server';

export default async function globalSetup() {
  // Port 0 picks a free port; give your app under test the same URL (its SIKARAMP_BASE_URL).
  const mock = await startMockServer({ port: 0, clock: 'manual' });
  process.env.SIKARAMP_MOCK_URL = mock.url;
  return () => mock.close();
}
