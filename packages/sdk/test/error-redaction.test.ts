/**
 * `SikarampError` keeps its message as given (so that `@sikaramp/sdk/webhooks` carries no
 * redaction code); each error class whose message can hold outside text redacts it itself.
 */
import { describe, expect, it } from 'vitest';
import { ApiError, ConnectionError, ResponseValidationError, SikarampError, ValidationError, WaitTimeoutError } from '../src/core/errors.js';
import { WebhookVerificationError } from '../src/webhooks/index.js';

const KEY = 'sika_secret_0123456789abcdef0123456789abcdef0123456789abcdef';

describe('errors built from outside text', () => {
  it.each([
    ['ApiError', () => new ApiError(400, { error: { code: 'X', message: `bad key ${KEY}` } }, new Headers())],
    ['ConnectionError', () => new ConnectionError(`could not reach http://127.0.0.1/?key=${KEY}`)],
    ['ValidationError', () => new ValidationError([{ path: ['apiKey'], message: `got ${KEY}` }])],
    ['ResponseValidationError', () => new ResponseValidationError([{ path: [], message: `got ${KEY}` }], {}, new Headers())],
    ['WaitTimeoutError', () => new WaitTimeoutError(5, KEY)],
  ])('%s redacts its message and stack', (_name, make) => {
    const error = make();
    expect(error).toBeInstanceOf(SikarampError);
    expect(error.message).toContain('[redacted]');
    expect(`${error.message}${error.stack}`).not.toContain(KEY);
  });

  it('a webhook verification error is still a SikarampError with its name and reason', () => {
    const error = new WebhookVerificationError('missing_header', 'No X-Svc-Signature header');
    expect(error).toBeInstanceOf(SikarampError);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ name: 'WebhookVerificationError', reason: 'missing_header', message: 'No X-Svc-Signature header' });
  });
});
