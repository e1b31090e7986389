/**
 * sikaramp-mock check-webhook <url> --secret SECRET [--kind order|checkout] [--handled-url URL]
 *                             [--tolerance SECONDS] [--timeout MS] [--json]
 * Exit code 0 when every check passed, 1 on any miss, 2 on a usage error or an endpoint that
 * cannot be reached (or a --handled-url that does not answer a JSON array). The secret may come
 * from SIKARAMP_WEBHOOK_SECRET instead, out of the process list.
 */
import { parseArgs } from 'node:util';
import { checkWebhook, formatReport } from './index.js';

export const usage =
  'usage: sikaramp-mock check-webhook <url> --secret SECRET [--kind order|checkout] [--handled-url URL]\n' +
  '                                   [--tolerance SECONDS] [--timeout MS] [--json]';

const options = {
  secret: { type: 'string' },
  kind: { type: 'string', default: 'order' },
  'handled-url': { type: 'string' },
  tolerance: { type: 'string', default: '300' },
  timeout: { type: 'string', default: '10000' },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** Runs the checker from command-line arguments (after `check-webhook`), prints its report, and returns the exit code. */
export async function runCheckWebhookCli(args: string[]): Promise<number> {
  const fail = (message: string) => {
    console.error(`sikaramp-mock check-webhook: ${message}\n${usage}`);
    return 2;
  };
  let parsed;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true });
  } catch (error) {
    return fail((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(usage);
    return 0;
  }
  const [url, ...extra] = positionals;
  if (!url || extra.length > 0) return fail('name one endpoint URL');
  const isHttp = (u: string) => URL.canParse(u) && ['http:', 'https:'].includes(new URL(u).protocol);
  if (!isHttp(url)) return fail(`not an http(s) URL: ${url}`);
  const handledUrl = values['handled-url'];
  if (handledUrl !== undefined && !isHttp(handledUrl)) return fail(`--handled-url is not an http(s) URL: ${handledUrl}`);
  const secret = values.secret ?? (process.env.SIKARAMP_WEBHOOK_SECRET || undefined);
  if (!secret) return fail('--secret (or SIKARAMP_WEBHOOK_SECRET) is required');
  if (values.kind !== 'order' && values.kind !== 'checkout') return fail(`--kind must be order or checkout, got ${values.kind}`);
  const tolerance = Number(values.tolerance);
  if (!Number.isInteger(tolerance) || tolerance <= 0) return fail(`--tolerance must be a whole number of seconds, got ${values.tolerance}`);
  const timeoutMs = Number(values.timeout);
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) return fail(`--timeout must be a whole number of milliseconds, got ${values.timeout}`);

  let report;
  try {
    report = await checkWebhook({ url, secret, kind: values.kind, handledUrl, tolerance, timeoutMs });
  } catch (error) {
    console.error(`sikaramp-mock check-webhook: ${(error as Error).message}`);
    return 2;
  }
  console.log(values.json ? JSON.stringify(report, null, 2) : formatReport(report));
  return report.missed > 0 ? 1 : 0;
}
