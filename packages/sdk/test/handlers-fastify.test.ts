/** toFastify with Fastify 5 over real HTTP: raw bodies kept by `rawBodies(scope)`, and the mistake of Fastify's own JSON parser. */
import Fastify from 'fastify';
import { rawBodies, toFastify } from '../src/handlers/adapters/fastify.js';
import { adapterSuite } from './helpers/handlers.js';

adapterSuite('Fastify', async ({ ramp, webhook }) => {
  const app = Fastify();
  // The handlers read bodies themselves: in this scope Fastify parses none (bad JSON is then the handler's 400 with a JSON error).
  await app.register(async (scope) => {
    rawBodies(scope);
    scope.all('/api/ramp/session', toFastify(ramp.session));
    scope.get('/api/ramp/status', toFastify(ramp.status));
    scope.post('/webhooks', toFastify(webhook));
  });
  app.post('/webhooks-parsed', toFastify(webhook));
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url, close: () => app.close() };
});
