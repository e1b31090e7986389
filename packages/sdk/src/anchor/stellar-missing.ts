import { SikarampError } from '../core/errors.js';

const NOT_FOUND = /Cannot find (?:package|module) '@stellar\/stellar-sdk[/']/;

/**
 * The error for a failed load of @stellar/stellar-sdk: when the package itself is missing, one that
 * says what to install; any other failure (one of its own files, a broken install) as it came.
 */
export function stellarLoadError(error: unknown): unknown {
  if (!(error instanceof Error) || !NOT_FOUND.test(error.message)) return error;
  return new SikarampError(
    '@sikaramp/sdk/anchor needs @stellar/stellar-sdk, an optional peer dependency that is not installed: ' +
      'run `npm install @stellar/stellar-sdk` (or the pnpm / yarn equivalent). The rest of @sikaramp/sdk works without it.',
    { cause: error },
  );
}
