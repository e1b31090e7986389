/** State of the checkout surface; part of the one store (see ../store.ts). */
export interface CheckoutWebhookEndpoint {
  id: string;
  organization_id: string;
  url: string;
  /** Signing secret of this endpoint (`X-Svc-Signature`). */
  secret: string;
  created_at: string;
}

export function createCheckoutState() {
  return {
    /** Subscribed webhook endpoints, by id. */
    webhookEndpoints: new Map<string, CheckoutWebhookEndpoint>(),
  };
}

export type CheckoutState = ReturnType<typeof createCheckoutState>;
