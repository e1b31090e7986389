/**
 * Stands in for your own login (Auth.js, Clerk, your session cookie): the Sikaramp id of the
 * customer signed in to your site, never an id the request names. This demo has one customer,
 * SIKARAMP_CUSTOMER_ID, signed in by the cookie `session` equal to SHOP_SESSION.
 */
export function customerOf(request: Request): string | undefined {
  const session = process.env.SHOP_SESSION;
  const cookies = (request.headers.get('cookie') ?? '').split(/;\s*/);
  return session && cookies.includes(`session=${session}`) ? process.env.SIKARAMP_CUSTOMER_ID : undefined;
}
