import type { z } from 'zod';
import { badRequest } from './errors.js';

/** Largest request body the mock reads, bytes; a bigger one is refused before parsing. */
export const MAX_BODY_BYTES = 1_000_000;

/** Reads the body as text, refusing one above MAX_BODY_BYTES. */
export async function readText(request: Request): Promise<string> {
  const text = await request.text();
  if (text.length > MAX_BODY_BYTES) throw badRequest('request body is too large');
  return text;
}

/** Parses a JSON body; anything that is not a JSON object is a 400 VALIDATION_ERROR. */
export async function readJsonObject(request: Request): Promise<Record<string, unknown>> {
  const text = await readText(request);
  if (text.trim() === '') throw badRequest('request body is empty');
  const value = parseJson(text);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw badRequest('request body must be a JSON object');
  }
  return value as Record<string, unknown>;
}

/** Reads and validates a JSON body; the first problem is named in the 400 message. */
export async function readBody<S extends z.ZodType>(request: Request, schema: S): Promise<z.infer<S>> {
  return parse(schema, await readJsonObject(request));
}

/** Like readBody, but an empty body counts as `{}` (for calls whose fields are all optional). */
export async function readOptionalBody<S extends z.ZodType>(request: Request, schema: S): Promise<z.infer<S>> {
  const text = await readText(request);
  if (text.trim() === '') return parse(schema, {});
  return parse(schema, parseJson(text));
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest('request body is not valid JSON');
  }
}

/** Validates a value against a schema, naming the first problem in a 400 VALIDATION_ERROR. */
export function parse<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  throw badRequest(`${where}${issue?.message ?? 'invalid request'}`);
}
