import type { HttpHandler } from 'msw';
import type { MockContext } from '../../context.js';
import { apiKeyHandlers } from './api-keys.js';
import { authHandlers } from './auth.js';
import { kybHandlers } from './kyb.js';
import { orderHandlers } from './orders.js';
import { profileHandlers } from './profile.js';
import { webhookHandlers } from './webhook.js';
import { widgetConfigHandlers } from './widget-config.js';

/** Every handler of the merchant dashboard (000 section 4), `Authorization: Bearer <access token>` but register and login. */
export function merchantHandlers(ctx: MockContext): HttpHandler[] {
  return [
    ...authHandlers(ctx),
    ...apiKeyHandlers(ctx),
    ...profileHandlers(ctx),
    ...kybHandlers(ctx),
    ...widgetConfigHandlers(ctx),
    ...webhookHandlers(ctx),
    ...orderHandlers(ctx),
  ];
}
