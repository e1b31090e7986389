/**
 * The SDK's own logging: off unless asked for. Every line and every detail string goes
 * through `redact`, query values under secret-looking names are masked, and no header is
 * logged but the request id, so that no credential reaches a log.
 */
import { redact, ValidationError } from './errors.js';

export type LogLevel = 'off' | 'error' | 'warn' | 'info' | 'debug';

/** Where the SDK's lines go: `console`, pino, winston and the like fit as they are. */
export interface Logger {
  debug(message: string, details?: Record<string, unknown>): void;
  info(message: string, details?: Record<string, unknown>): void;
  warn(message: string, details?: Record<string, unknown>): void;
  error(message: string, details?: Record<string, unknown>): void;
}

const SEVERITY: Record<LogLevel, number> = { off: 0, error: 1, warn: 2, info: 3, debug: 4 };
const isLevel = (value: unknown): value is LogLevel => typeof value === 'string' && Object.hasOwn(SEVERITY, value);

/** What the core logs through, a Logger whose level is already applied and text already redacted. */
export type Log = Logger;

/**
 * The log of a client: `logLevel`, else `SIKARAMP_LOG` where `process.env` exists (a value
 * that is no level is ignored), else off. Without a `logger`, lines go to `console`.
 */
export function createLog(logger: Logger | undefined, logLevel: LogLevel | undefined): Log | undefined {
  if (logLevel !== undefined && !isLevel(logLevel)) {
    throw new ValidationError([{ path: [], message: `must be one of ${Object.keys(SEVERITY).join(', ')}` }], 'logLevel');
  }
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.SIKARAMP_LOG?.trim().toLowerCase();
  const level = logLevel ?? (isLevel(env) ? env : 'off');
  if (level === 'off') return undefined;
  const sink: Logger = logger ?? console;
  const at = (name: Exclude<LogLevel, 'off'>) =>
    SEVERITY[name] <= SEVERITY[level]
      ? (message: string, details?: Record<string, unknown>) => {
          const clean = details && Object.fromEntries(Object.entries(details).map(([key, value]) => [key, typeof value === 'string' ? redact(value) : value]));
          if (clean) sink[name](redact(message), clean);
          else sink[name](redact(message));
        }
      : () => {};
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** Query parameter names whose value is masked in a logged URL, whatever it looks like. */
const SECRET_PARAM = /key|token|secret|signature|password|jwt|seed|auth|code/i;

/** A URL as it may be logged: secret-named query values masked, the rest redacted. */
export function loggableUrl(url: string, query?: Record<string, unknown>): string {
  const parsed = new URL(url);
  for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined) parsed.searchParams.append(name, String(value));
  for (const name of new Set(parsed.searchParams.keys())) {
    if (SECRET_PARAM.test(name)) parsed.searchParams.set(name, '[redacted]');
  }
  return redact(parsed.toString().replace(/%5Bredacted%5D/g, '[redacted]'));
}
