/** The Fastify example over real HTTP against the standalone mock server (see hono-handlers' shop-suite.ts, shared by the examples). */
import { createShop } from '../src/server.ts';
import { shopSuite } from '../../hono-handlers/test/shop-suite.ts';

shopSuite('Fastify', async (config, port) => {
  const app = createShop(config);
  await app.listen({ port, host: '127.0.0.1' });
  return { close: () => app.close() };
});
