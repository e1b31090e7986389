/**
 * SEP-1: the anchor's `/.well-known/stellar.toml`, where it publishes its SEP-10 signing key,
 * web auth endpoint and network. Only the top-level `KEY = "value"` lines are read.
 */
import * as z from 'zod';
import { ResponseValidationError } from '../../core/errors.js';
import type { HttpCore, RequestOptions } from '../../core/http.js';
import { responseObject } from '../../core/schema.js';

/** What the SDK reads from stellar.toml. */
export const StellarTomlSchema = responseObject({
  SIGNING_KEY: z.string().regex(/^G[A-Z2-7]{55}$/).optional(),
  WEB_AUTH_ENDPOINT: z.url().optional(),
  NETWORK_PASSPHRASE: z.string().optional(),
  KYC_SERVER: z.url().optional(),
  TRANSFER_SERVER_SEP0024: z.url().optional(),
});
export type StellarToml = z.infer<typeof StellarTomlSchema>;

/** Reads the top-level string and number keys of a TOML document, up to its first table. */
export function parseTomlTopLevel(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith('[')) break;
    const match = line.match(/^([A-Za-z0-9_]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|([^#\s]+))/);
    if (!match) continue;
    const [, key, quoted, literal, bare] = match;
    out[key!] = quoted !== undefined ? (JSON.parse(`"${quoted}"`) as string) : (literal ?? bare!);
  }
  return out;
}

/** Fetches and reads `https://<home domain>/.well-known/stellar.toml` (the scheme of `origin`). */
export async function fetchStellarToml(core: HttpCore, opts?: RequestOptions): Promise<StellarToml> {
  const { response, body } = await core.send('GET', '.well-known/stellar.toml', { ...opts, auth: false });
  const text = typeof body === 'string' ? body : '';
  const result = StellarTomlSchema.safeParse(parseTomlTopLevel(text));
  if (!result.success) throw new ResponseValidationError(result.error.issues, body, response.headers);
  return result.data;
}
