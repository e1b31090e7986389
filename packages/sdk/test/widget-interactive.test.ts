import { describe, expect, it } from 'vitest';
import { WidgetClient } from '../src/clients/widget.js';
import { ValidationError } from '../src/index.js';
import { recordingFetch } from './helpers/clients.js';

const secretKey = 'sika_secret_111111111111111111111111111111111111111111111111';
const publicKey = 'sika_public_222222222222222222222222222222222222222222222222';

describe('widget.interactive input', () => {
  const { fetch, sent } = recordingFetch();
  const widget = new WidgetClient({ baseUrl: 'http://127.0.0.1:9', secretKey, publicKey, fetch });

  it('refuses the secret key as api_key, without echoing it', async () => {
    const error = await widget.interactive.deposit({ user_id: 'c1', api_key: secretKey }).then(() => undefined, (e: unknown) => e as ValidationError);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error!.issues.map((i) => i.path.join('.'))).toEqual(['api_key']);
    expect(error!.message).not.toContain(secretKey);
  });

  it('refuses another asset, a negative amount or a bad Stellar address', async () => {
    for (const params of [
      { user_id: 'c1', asset_code: 'XLM' },
      { user_id: 'c1', fiat_amount: -5 },
      { user_id: 'c1', destination_address: 'GABC' },
    ]) {
      await expect(widget.interactive.deposit(params as never)).rejects.toBeInstanceOf(ValidationError);
    }
    await expect(widget.interactive.withdraw({ user_id: 'c1', onchain_amount: 0 })).rejects.toBeInstanceOf(ValidationError);
  });

  it('needs a public key from the call or the client', async () => {
    const bare = new WidgetClient({ baseUrl: 'http://127.0.0.1:9', secretKey, fetch });
    const error = await bare.interactive.withdraw({ user_id: 'c1' }).then(() => undefined, (e: unknown) => e as ValidationError);
    expect(error!.issues.map((i) => i.path.join('.'))).toEqual(['api_key']);
    expect(sent).toEqual([]);
  });
});
