/** The Express example over real HTTP against the standalone mock server (see hono-handlers' shop-suite.ts, shared by the examples). */
import { once } from 'node:events';
import { createShop } from '../src/server.ts';
import { shopSuite } from '../../hono-handlers/test/shop-suite.ts';

shopSuite('Express', async (config, port) => {
  const server = createShop(config).listen(port, '127.0.0.1');
  await once(server, 'listening');
  return { close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))) };
});
