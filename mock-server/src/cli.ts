#!/usr/bin/env node
/**
 * sikaramp-mock: the whole Sikaramp service on one port.
 *   sikaramp-mock --port 4010 [--host 127.0.0.1] [--clock manual|real] [--seed N] [--start ISO]
 *                 [--network testnet|public] [--auto-advance] [--log]
 *                 [--cors-origin URL]... [--control-origin URL]... [--control-token TOKEN]
 * The control token may come from SIKARAMP_MOCK_CONTROL_TOKEN instead, out of the process list.
 *
 *   sikaramp-mock check-webhook <url> --secret ... [--kind order|checkout]   (check-webhook/cli.ts)
 */
import { parseArgs } from 'node:util';

const usage =
  'usage: sikaramp-mock [--port 4010] [--host 127.0.0.1] [--clock manual|real] [--seed N] [--start ISO] [--network testnet|public] [--auto-advance] [--log]\n' +
  '                     [--cors-origin URL]... [--control-origin URL]... [--control-token TOKEN]\n' +
  '       sikaramp-mock check-webhook <url> --secret SECRET [--kind order|checkout] [--handled-url URL] (see --help there)';
function fail(message: string): never {
  console.error(`sikaramp-mock: ${message}\n${usage}`);
  process.exit(2);
}

const options = {
  port: { type: 'string', default: '4010' },
  host: { type: 'string', default: '127.0.0.1' },
  clock: { type: 'string', default: 'real' },
  seed: { type: 'string' },
  start: { type: 'string' },
  'cors-origin': { type: 'string', multiple: true, default: [] as string[] },
  'control-origin': { type: 'string', multiple: true, default: [] as string[] },
  'control-token': { type: 'string' },
  network: { type: 'string', default: 'testnet' },
  'auto-advance': { type: 'boolean', default: false },
  log: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

// Each command loads only its own code: the checker needs none of the server.
if (process.argv[2] === 'check-webhook') {
  const { runCheckWebhookCli } = await import('./check-webhook/cli.js');
  process.exitCode = await runCheckWebhookCli(process.argv.slice(3));
} else {
  await serve();
}

async function serve() {
  const { startMockServer } = await import('./server.js');
  // An unknown or malformed flag gets the usage and exit code 2, not a stack trace.
  const { values } = (() => {
    try {
      return parseArgs({ options });
    } catch (error) {
      return fail((error as Error).message);
    }
  })();

  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) fail(`--port must be 0..65535, got ${values.port}`);
  if (values.clock !== 'real' && values.clock !== 'manual') fail(`--clock must be real or manual, got ${values.clock}`);
  if (values.network !== 'testnet' && values.network !== 'public') fail(`--network must be testnet or public`);
  const seed = values.seed === undefined ? undefined : Number(values.seed);
  if (seed !== undefined && !Number.isInteger(seed)) fail(`--seed must be an integer, got ${values.seed}`);
  if (values.start !== undefined && !Number.isFinite(Date.parse(values.start))) fail(`--start must be an ISO 8601 time, got ${values.start}`);
  for (const origin of [...values['cors-origin'], ...values['control-origin']]) {
    if (!URL.canParse(origin) || new URL(origin).origin === 'null') fail(`not an origin: ${origin}`);
  }
  const controlToken = values['control-token'] ?? (process.env.SIKARAMP_MOCK_CONTROL_TOKEN || undefined);
  if (controlToken !== undefined && controlToken.length < 16) fail('--control-token must be at least 16 characters');

  const server = await startMockServer({
    port,
    host: values.host,
    clock: values.clock,
    seed,
    ...(values.start === undefined ? {} : { clockStart: values.start }),
    network: values.network,
    corsOrigins: values['cors-origin'],
    controlOrigins: values['control-origin'],
    ...(controlToken === undefined ? {} : { controlToken }),
    autoAdvance: values['auto-advance'],
    log: values.log,
  }).catch((error: NodeJS.ErrnoException) => fail(error.code === 'EADDRINUSE' ? `port ${port} is in use` : error.message));

  // Before the banner: whoever waits for it may signal at once.
  let closing = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (closing) process.exit(1);
      closing = true;
      void server.close().then(() => {
        console.log('sikaramp-mock: stopped');
        process.exit(0);
      });
    });
  }

  const u = server.backend.urls;
  console.log(`Sikaramp mock server listening on ${server.url} (clock: ${values.clock}${seed === undefined ? '' : `, seed: ${seed}`})
  widget backend & dashboard  ${u.base}/api/v1/...
  ramp API                    ${u.ramp.join(', ')}/api/v1/ramp/...
  checkout API                ${u.checkout}/api/v1/developer/...
  anchor (SEP-10/12/24)       ${u.anchor}   (stellar.toml: ${u.origin}/.well-known/stellar.toml)
  earlier gateway routes      ${u.gateway}
  interactive page            ${u.interactive}
  dashboard                   ${u.control}/   (${controlToken === undefined ? 'phones, records, webhooks, clock' : 'needs the control token, which a browser cannot send'})
  control                     ${u.control}   (POST /reset, GET /clock, POST /clock/advance, ...${controlToken === undefined ? '' : '; needs the control token'})
Try:
  curl -s -X POST ${u.base}/api/v1/merchant/register -H 'content-type: application/json' \\
    -d '{"name":"Demo","legal_name":"Demo Ltd","email":"demo@example.com","password":"correct horse"}'
  curl -s ${u.control}/clock`);
}
