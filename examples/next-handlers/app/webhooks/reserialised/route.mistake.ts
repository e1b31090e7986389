/**
 * Test only: the raw-body mistake, made on purpose so that the test sees the handler refuse it.
 * Next.js serves this file only when next.config.ts adds the `mistake.ts` extension, which it
 * does for the test's build alone.
 */
import { route } from '../../../lib/sikaramp.ts';

const webhook = route('webhook');

export async function POST(request: Request) {
  // Parsed, then written out again: not the bytes Sikaramp signed.
  const body: unknown = await request.json();
  return webhook(new Request(request.url, { method: 'POST', headers: request.headers, body: JSON.stringify(body) }));
}
