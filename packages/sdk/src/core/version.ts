/**
 * The package's version and how it names itself on the wire. tsup replaces
 * `__SIKARAMP_SDK_VERSION__` with package.json's version at build time; run from source
 * (tests), the constant is undefined and the version reads `0.0.0-source`.
 */
declare const __SIKARAMP_SDK_VERSION__: string | undefined;

export const VERSION: string = typeof __SIKARAMP_SDK_VERSION__ === 'string' ? __SIKARAMP_SDK_VERSION__ : '0.0.0-source';

/**
 * The header that names the SDK to the service. Node, Bun and Deno may set `User-Agent`;
 * a browser forbids it (fetch drops it silently), so elsewhere the name goes in `X-Sikaramp-Client`.
 */
export function clientHeader(): [name: string, value: string] {
  const g = globalThis as { process?: { versions?: Record<string, string | undefined> }; Deno?: { version?: { deno?: string } } };
  const versions = g.process?.versions;
  const runtime = g.Deno?.version?.deno
    ? `deno/${g.Deno.version.deno}`
    : versions?.bun
      ? `bun/${versions.bun}`
      : versions?.node
        ? `node/${versions.node}`
        : undefined;
  return runtime ? ['user-agent', `sikaramp-sdk/${VERSION} ${runtime}`] : ['x-sikaramp-client', `sikaramp-sdk/${VERSION}`];
}
