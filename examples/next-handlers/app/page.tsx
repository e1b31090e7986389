import { BuyUsdc } from './buy-usdc.tsx';

// Rendered per request: the keys are read when the shop runs, not at `next build`.
export const dynamic = 'force-dynamic';

/** The checkout page, a server component: it hands the browser the public key, never the secret one. */
export default function Page() {
  return (
    <main>
      <h1>Top up with Mobile Money</h1>
      <BuyUsdc publicKey={process.env.SIKARAMP_PUBLIC_KEY!} apiBase={process.env.SIKARAMP_BASE_URL!} />
    </main>
  );
}
