import { readJsonObject } from '../../http/body.js';
import { badRequest } from '../../http/errors.js';

/**
 * Reads the request body as SEP servers do: JSON, `application/x-www-form-urlencoded` or
 * `multipart/form-data` (what SEP-10, SEP-12 and SEP-24 client libraries send). Form values
 * are strings; uploaded files are ignored. An empty body is `{}`.
 */
export async function readFields(request: Request): Promise<Record<string, unknown>> {
  const type = (request.headers.get('content-type') ?? '').toLowerCase();
  if (type.startsWith('multipart/form-data') || type.startsWith('application/x-www-form-urlencoded')) {
    let form: FormData;
    try {
      form = await request.formData();
    } catch {
      throw badRequest('request body is not valid form data');
    }
    const fields: Record<string, unknown> = {};
    for (const [name, value] of form) if (typeof value === 'string') fields[name] = value;
    return fields;
  }
  if (type === '' || type.includes('json')) {
    const text = await request.clone().text();
    if (text.trim() === '') return {};
    return readJsonObject(request);
  }
  throw badRequest(`unsupported content type ${type.split(';')[0]}; send JSON, form-urlencoded or multipart`);
}
