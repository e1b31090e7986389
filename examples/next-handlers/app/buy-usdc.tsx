'use client';
import { useState } from 'react';
import { RampWidget } from '@sikaramp/widget/react';

/**
 * `<ramp-widget>` against this app's route handlers. Its settings are attributes, so the server's
 * HTML carries them (props such as `apiKey` are set only once React hydrates). It only thanks
 * the customer: the webhook fulfils.
 */
export function BuyUsdc({ publicKey, apiBase }: { publicKey: string; apiBase: string }) {
  const [thanks, setThanks] = useState('');
  return (
    <>
      <RampWidget
        data-api-key={publicKey}
        api-base={apiBase}
        session-url="/api/ramp/session"
        status-url="/api/ramp/status"
        onRampComplete={(e) => setThanks(`Thank you! Your USDC is on its way (${e.detail.transaction.id}).`)}
      />
      <p role="status">{thanks}</p>
    </>
  );
}
