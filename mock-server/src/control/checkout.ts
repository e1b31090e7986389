/**
 * Control calls of the checkout surface (see ./index.ts), in-process as
 * `backend.control.checkout.*` and over HTTP:
 * - `POST /_mock/checkout/keys {legacy?, organization_id?, allowed_ips?, environment?}` -> `{key, key_id, organization_id}`
 * - `POST /_mock/checkout/keys/rotate {key}` -> `{key, key_id, organization_id}` (the old key stops working)
 * - `POST /_mock/checkout/organizations/{id}/deactivate | activate | select`
 * - `POST /_mock/checkout/{reference}/complete {status, final_amount?}` -> the session as verify shows it
 * - `POST /_mock/checkout/gateway/faults {status: 502 | 429, count}` -> `{status, remaining}`
 * - `POST /_mock/checkout/gateway/hold`, `GET /_mock/checkout/gateway/held` (waits), `POST /_mock/checkout/gateway/release`
 */
import { http, HttpResponse } from 'msw';
import { z } from 'zod';
import { iso } from '../clock.js';
import type { MockContext } from '../context.js';
import { readBody } from '../http/body.js';
import { HttpError, notFound } from '../http/errors.js';
import { route } from '../http/respond.js';
import type { CheckoutOrganization, GatewayHold, OrganizationStatus } from '../state/checkout.js';
import { findCheckoutKey, issueCheckoutKey } from '../handlers/checkout/auth.js';
import { findCheckoutSession, sessionBody, settleSession } from '../handlers/gateway/gateway.js';

const KeySchema = z.object({
  /** Issued before the checkout route existed: 401 there until rotated once. */
  legacy: z.boolean().optional(),
  /** An existing organization; absent creates (and selects) a new one; null links none. */
  organization_id: z.string().nullable().optional(),
  allowed_ips: z.array(z.string().min(1)).optional(),
  environment: z.enum(['test', 'live']).optional(),
});
export type CheckoutKeyParams = z.infer<typeof KeySchema>;

const CompleteSchema = z.object({
  status: z.enum(['completed', 'success', 'failed', 'cancelled']),
  /** Amount the session confirms, smallest unit; default the amount requested. */
  final_amount: z.int().nonnegative().optional(),
});

const FaultSchema = z.object({ status: z.union([z.literal(502), z.literal(429)]), count: z.int().nonnegative() });

export function checkoutControl(ctx: MockContext) {
  const state = () => ctx.store.checkout;
  const organization = (id: string) => {
    const org = state().organizations.get(id);
    if (!org) throw notFound('organization');
    return org;
  };
  const setStatus = (id: string, status: OrganizationStatus) => {
    organization(id).status = status;
    return { id, status };
  };
  const createOrganization = (): CheckoutOrganization => {
    const org: CheckoutOrganization = {
      id: `org_${ctx.random.hex(8)}`,
      name: `Organization ${state().organizations.size + 1}`,
      status: 'active',
      user_id: `usr_${ctx.random.hex(8)}`,
      created_at: iso(ctx.clock.now()),
    };
    state().organizations.set(org.id, org);
    // Creating an organization in the dashboard switches to it.
    state().selectedOrganizationId = org.id;
    return org;
  };
  const heldOrThrow = (): GatewayHold => {
    const hold = state().gateway.hold;
    if (!hold) throw new HttpError(409, 'INVALID_STATE', 'no hold is set: POST /_mock/checkout/gateway/hold first');
    return hold;
  };

  const api = {
    /** Issues a checkout key; the text is returned once. */
    async createKey(params: CheckoutKeyParams = {}) {
      const org =
        params.organization_id === null
          ? undefined
          : params.organization_id === undefined
            ? createOrganization()
            : organization(params.organization_id);
      const { key, record } = await issueCheckoutKey(ctx, {
        organizationId: org?.id ?? null,
        userId: org?.user_id ?? `usr_${ctx.random.hex(8)}`,
        legacy: params.legacy,
        environment: params.environment,
        allowedIps: params.allowed_ips,
      });
      return { key, key_id: record.id, organization_id: record.organization_id };
    },
    /** Rotates a key as the developer dashboard does: a new current key, the old one stops working. */
    async rotateKey(text: string) {
      const old = await findCheckoutKey(ctx, text);
      if (!old) throw notFound('active checkout key');
      const { key, record } = await issueCheckoutKey(ctx, {
        organizationId: old.organization_id,
        userId: old.user_id,
        environment: old.environment,
        allowedIps: old.allowed_ips,
      });
      old.is_active = false;
      old.rotated_at = record.created_at;
      return { key, key_id: record.id, organization_id: record.organization_id };
    },
    /** An inactive organization's key gets 400 at the checkout routes. */
    deactivateOrganization: (id: string) => setStatus(id, 'inactive'),
    activateOrganization: (id: string) => setStatus(id, 'active'),
    /** Switches the dashboard to this organization: the earlier gateway routes attribute payments to it. */
    selectOrganization(id: string) {
      state().selectedOrganizationId = organization(id).id;
      return { selected_organization_id: id };
    },
    /** Sets a session's outcome, as the customer's choice on the hosted page does. */
    complete(reference: string, status: z.infer<typeof CompleteSchema>['status'], finalAmount?: number) {
      const session = findCheckoutSession(ctx, reference);
      if (!session) throw notFound('checkout session');
      return sessionBody(settleSession(ctx, session, status, finalAmount)).data;
    },
    gateway: {
      /** The next `count` gateway API calls (creation or lookup) answer `status`; 0 clears. */
      fail(status: 502 | 429, count: number) {
        state().gateway.faults = count > 0 ? { status, remaining: count } : undefined;
        return { status, remaining: count };
      },
      /** Holds every gateway creation in flight until `release()`. */
      hold() {
        if (!state().gateway.hold) {
          let release = () => {};
          const released = new Promise<void>((resolve) => (release = resolve));
          state().gateway.hold = { waiting: 0, release, released, watchers: [] };
        }
        return { holding: true };
      },
      /** Resolves with the number of held creations once at least one is held. */
      async held(): Promise<{ waiting: number }> {
        const hold = heldOrThrow();
        if (hold.waiting === 0) await new Promise<void>((resolve) => hold.watchers.push(resolve));
        return { waiting: hold.waiting };
      },
      /** Lets every held creation go on, and stops holding. */
      release() {
        const hold = heldOrThrow();
        state().gateway.hold = undefined;
        hold.release();
        return { released: hold.waiting };
      },
    },
  };

  const base = `${ctx.urls.control}/checkout`;
  const json = (fn: () => object) => async () => HttpResponse.json(await fn());
  const handlers = [
    http.post(
      `${base}/keys`,
      route(ctx, 'envelope', async ({ request }) => {
        // An empty body is allowed (curl -X POST): a current key for a new organization.
        const empty = (await request.clone().text()).trim() === '';
        const params = empty ? {} : await readBody(request, KeySchema);
        return HttpResponse.json(await api.createKey(params), { status: 201 });
      }),
    ),
    http.post(
      `${base}/keys/rotate`,
      route(ctx, 'envelope', async ({ request }) => {
        const { key } = await readBody(request, z.object({ key: z.string().min(1) }));
        return HttpResponse.json(await api.rotateKey(key), { status: 201 });
      }),
    ),
    ...(['deactivate', 'activate', 'select'] as const).map((action) =>
      http.post(
        `${base}/organizations/:id/${action}`,
        route(ctx, 'envelope', ({ params }) => {
          const id = String(params.id);
          const result =
            action === 'select' ? api.selectOrganization(id) : action === 'activate' ? api.activateOrganization(id) : api.deactivateOrganization(id);
          return HttpResponse.json(result);
        }),
      ),
    ),
    http.post(
      `${base}/gateway/faults`,
      route(ctx, 'envelope', async ({ request }) => {
        const { status, count } = await readBody(request, FaultSchema);
        return HttpResponse.json(api.gateway.fail(status, count));
      }),
    ),
    http.post(`${base}/gateway/hold`, route(ctx, 'envelope', json(api.gateway.hold))),
    http.get(`${base}/gateway/held`, route(ctx, 'envelope', json(api.gateway.held))),
    http.post(`${base}/gateway/release`, route(ctx, 'envelope', json(api.gateway.release))),
    http.post(
      `${base}/:reference/complete`,
      route(ctx, 'envelope', async ({ request, params }) => {
        const { status, final_amount } = await readBody(request, CompleteSchema);
        return HttpResponse.json(api.complete(String(params.reference), status, final_amount));
      }),
    ),
  ];
  return { api, handlers };
}
