/**
 * SEP-10's two answers, read by `AnchorClient` (src/anchor/index.ts, which checks the challenge
 * transaction itself) and described by the OpenAPI document (src/openapi/routes.ts): one schema
 * each, here, apart from @stellar/stellar-sdk, so that the two cannot disagree.
 */
import * as z from 'zod';
import { responseObject } from '../../core/schema.js';

/**
 * `GET /auth`: the challenge transaction (XDR) and the network it is for. SEP-10 makes
 * `network_passphrase` optional (the service's anchor sends it); without it the client uses
 * the stellar.toml's NETWORK_PASSPHRASE.
 */
export const AnchorChallengeSchema = responseObject({ transaction: z.string().min(1), network_passphrase: z.string().optional() });

/** `POST /auth`: the JWT the signed challenge was exchanged for. */
export const AnchorTokenSchema = responseObject({ token: z.string().min(1) });
