/** The Hono example over real HTTP against the standalone mock server (see shop-suite.ts). */
import { serve } from '../src/main.ts';
import { createShop } from '../src/server.ts';
import { shopSuite } from './shop-suite.ts';

shopSuite('Hono', async (config, port) => serve(createShop(config).fetch, port));
