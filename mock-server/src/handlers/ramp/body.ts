import type { z } from 'zod';
import { readBody } from '../../http/body.js';
import { HttpError } from '../../http/errors.js';

/**
 * Reads a ramp request's JSON body. 001 section 4: "JSON bodies use Content-Type:
 * application/json"; a body sent as anything else (none, `text/plain` as `fetch` sends a
 * string by default, a form) is refused with 415 before it is read, as a service that parses
 * by media type would not read it, so that code passing here does not fail there.
 */
export async function readRampBody<S extends z.ZodType>(request: Request, schema: S): Promise<z.infer<S>> {
  const type = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') throw new HttpError(415, 'VALIDATION_ERROR', 'Content-Type must be application/json');
  return readBody(request, schema);
}
