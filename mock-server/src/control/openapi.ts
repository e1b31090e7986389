/**
 * `GET /_mock/openapi.json`: the OpenAPI 3.1 document of the service (the one @sikaramp/sdk
 * ships as `@sikaramp/sdk/openapi.json`), with each server's default set to where this mock
 * serves it, so a client generated from it, or a validator, works against the mock as it is.
 */
import { http } from 'msw';
import type { MockContext } from '../context.js';
import { json } from '../http/respond.js';

interface Server {
  url: string;
  variables?: Record<string, { default: string }>;
}

/** The document with this mock's URLs. */
export async function openapiDocument(ctx: MockContext): Promise<Record<string, unknown>> {
  // Loaded on first use: the document is large, and most uses of the mock never ask for it.
  const { openapiJson } = await import('./openapi.generated.js');
  const document = JSON.parse(openapiJson) as { servers: Server[]; paths: Record<string, { servers?: Server[] }> };
  const { urls } = ctx;
  const here: Record<string, string> = {
    base_url: urls.base,
    anchor_url: urls.anchor,
    anchor_origin: new URL(urls.anchor).origin,
    ramp_base_url: urls.ramp[0]!,
    checkout_base_url: urls.checkout,
    gateway_url: urls.gateway,
  };
  const servers = [document.servers, ...Object.values(document.paths).map((item) => item.servers ?? [])].flat();
  for (const server of servers) {
    for (const [name, variable] of Object.entries(server.variables ?? {})) variable.default = here[name] ?? variable.default;
  }
  return document;
}

/** Served over HTTP only: `backend.control` (and so the control client) has no part of it. */
export function openapiControl(ctx: MockContext) {
  let document: Promise<Record<string, unknown>> | undefined;
  const handlers = [http.get(`${ctx.urls.control}/openapi.json`, async () => json(await (document ??= openapiDocument(ctx))))];
  return { handlers };
}
