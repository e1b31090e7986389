/** node:crypto's synchronous HMAC, for the `node`, `bun` and `deno` builds (`node.ts`, `testing-node.ts`). */
import { createHmac } from 'node:crypto';
import type { Hmac } from './crypto.js';

// No await on this path: a delivery is verified at once, with no turn of the microtask queue.
export const nodeHmac: Hmac = (secret, content) => createHmac('sha256', secret).update(content).digest('hex');
