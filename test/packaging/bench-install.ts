/**
 * `pnpm bench:install` (part of `pnpm bench`): what `npm install` of each packed tarball brings from
 * the npm registry into an empty project, beside stripe's install measured the same way. Needs the
 * network and the packages built; one install each. install-weight.test.ts holds the same installs
 * to budgets, offline.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertBuilt, pack, ROOT, type PackageName, type Tarball } from './helpers/consumer.ts';
import { MB, npmInstall } from './helpers/npm-install.ts';

const names: PackageName[] = ['@sikaramp/sdk', '@sikaramp/mock-server', '@sikaramp/widget'];
await Promise.all(names.map(assertBuilt));
const packed = await mkdtemp(join(tmpdir(), 'sikaramp-tarballs-'));
const tarballs = {} as Record<PackageName, Tarball>;
for (const name of names) tarballs[name] = await pack(name, packed);
const peer = (name: PackageName, dependency: string) => `${dependency}@${tarballs[name].manifest.peerDependencies?.[dependency]}`;
// The stripe the workspace locked (a root devDependency), so that the comparison moves only when we choose.
const stripe = (JSON.parse(readFileSync(join(ROOT, 'node_modules', 'stripe', 'package.json'), 'utf8')) as { version: string }).version;

const installs: [string, string[]][] = [
  ['@sikaramp/sdk', [tarballs['@sikaramp/sdk'].file]],
  ['@sikaramp/sdk + @stellar/stellar-sdk (for /anchor)', [tarballs['@sikaramp/sdk'].file, peer('@sikaramp/sdk', '@stellar/stellar-sdk')]],
  ['@sikaramp/mock-server + msw', [tarballs['@sikaramp/mock-server'].file, peer('@sikaramp/mock-server', 'msw')]],
  ['@sikaramp/widget', [tarballs['@sikaramp/widget'].file]],
  [`stripe@${stripe}`, [`stripe@${stripe}`]],
];

const rows: string[][] = [];
try {
  for (const [label, specs] of installs) {
    const project = await npmInstall(specs);
    const { bytes, packages, stellarBytes, seconds } = project.weight;
    rows.push([label, `${(bytes / MB).toFixed(1)} MB`, String(packages.length), `${(stellarBytes / MB).toFixed(1)} MB`, `${seconds.toFixed(1)} s`]);
    await project.remove();
  }
} finally {
  await rm(packed, { recursive: true, force: true });
}

const head = ['install', 'node_modules', 'packages', 'of it @stellar/*', 'npm install time'];
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
console.log('\n## Install weight: npm install from the registry into an empty project (bytes of the files under node_modules)\n');
console.log([line(head), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n'));
