/**
 * Finds the TypeScript samples in the repository's Markdown and type-checks them all with
 * one `tsc` run against the workspace packages' sources. Used by samples.test.ts.
 *
 * A fenced block whose info string starts with `ts` or `typescript` is a sample; adding the
 * word `nocheck` (```` ```ts nocheck ````) leaves it out, for a deliberately wrong example.
 * Each sample is its own module, so samples never see each other's declarations.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { promisify } from 'node:util';

export interface Sample {
  /** Markdown file, relative to the repository root, with `/` separators. */
  file: string;
  /** Line of the sample's first code line in that file, 1-based. */
  line: number;
  code: string;
}

export interface Diagnostic {
  /** `file:line:column` in the Markdown file. */
  where: string;
  /** `TS2304: Cannot find name 'app'.` */
  message: string;
}

export interface SampleCheck {
  /** Each file's diagnostics, keyed by its name in the scratch directory (sampleFileName). */
  diagnostics: Map<string, Diagnostic[]>;
  /**
   * Diagnostics in the workspace sources the samples import: their packages' typecheck
   * reports them, but a syntax error there hides every sample's type errors.
   */
  elsewhere: Diagnostic[];
}

/** The workspace's import specifiers and the source files they compile from. */
export const WORKSPACE_ENTRIES: Record<string, string> = {
  '@sikaramp/sdk': 'packages/sdk/src/index.ts',
  '@sikaramp/sdk/webhooks': 'packages/sdk/src/webhooks/index.ts',
  '@sikaramp/sdk/webhooks/dedupe': 'packages/sdk/src/webhooks/dedupe.ts',
  '@sikaramp/sdk/webhooks/testing': 'packages/sdk/src/webhooks/testing.ts',
  '@sikaramp/sdk/webhooks/sqlite': 'packages/sdk/src/webhooks/sqlite.ts',
  '@sikaramp/sdk/redis': 'packages/sdk/src/redis/index.ts',
  '@sikaramp/sdk/anchor': 'packages/sdk/src/anchor/index.ts',
  '@sikaramp/sdk/handlers': 'packages/sdk/src/handlers/index.ts',
  '@sikaramp/sdk/handlers/express': 'packages/sdk/src/handlers/adapters/express.ts',
  '@sikaramp/sdk/handlers/hono': 'packages/sdk/src/handlers/adapters/hono.ts',
  '@sikaramp/sdk/handlers/fastify': 'packages/sdk/src/handlers/adapters/fastify.ts',
  '@sikaramp/sdk/handlers/next': 'packages/sdk/src/handlers/adapters/next.ts',
  '@sikaramp/widget': 'packages/widget/src/index.ts',
  '@sikaramp/mock-server': 'mock-server/src/index.ts',
  '@sikaramp/mock-server/client': 'mock-server/src/client.ts',
};

const CHECKED = new Set(['ts', 'typescript']);
// Scratch files and the generated API reference hold no hand-written samples.
const SKIPPED_DIRS = new Set(['docs/.samples', 'docs/reference/api']);

/** README.md, every Markdown file under docs/ and the packages' and examples' READMEs. */
export function markdownFiles(root: string): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory() && !SKIPPED_DIRS.has(path) && entry.name !== 'node_modules') walk(path);
      else if (entry.isFile() && entry.name.endsWith('.md')) files.push(path);
    }
  };
  walk('docs');
  const readmes = ['README.md', 'mock-server/README.md'];
  for (const parent of ['packages', 'examples']) {
    if (!existsSync(join(root, parent))) continue;
    for (const entry of readdirSync(join(root, parent), { withFileTypes: true })) {
      if (entry.isDirectory()) readmes.push(`${parent}/${entry.name}/README.md`);
    }
  }
  return [...readmes.filter((file) => existsSync(join(root, file))), ...files.sort()];
}

/** The checked samples of one Markdown text (fences of three or more backticks or tildes). */
export function extractSamples(markdown: string, file: string): Sample[] {
  const lines = markdown.split(/\r?\n/);
  const samples: Sample[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([^`]*)$/.exec(lines[i]!);
    if (!open) continue;
    const [, indent = '', fence = '', info = ''] = open;
    const close = new RegExp(`^\\s*${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`);
    let end = i + 1;
    while (end < lines.length && !close.test(lines[end]!)) end++;
    const words = info.trim().split(/\s+/);
    if (CHECKED.has(words[0]!.toLowerCase()) && !words.includes('nocheck')) {
      // A fence indented inside a list item: its content carries the same indentation.
      const body = lines.slice(i + 1, end).map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l.trimStart()));
      samples.push({ file, line: i + 2, code: body.join('\n') + '\n' });
    }
    i = end;
  }
  return samples;
}

/** The sample's file name in the scratch directory: readable, and unique per file and line. */
export const sampleFileName = (s: Sample) => `${s.file.replace(/[^\w.-]+/g, '_')}_L${s.line}.ts`;

/**
 * Writes the samples to `dir` with a tsconfig that maps the workspace specifiers to their
 * sources, runs `tsc` (once, unless a sample has a syntax error), and answers each sample's
 * diagnostics located in the Markdown. `extra` are more files to compile alongside, by name.
 */
export async function typecheckSamples(
  root: string,
  dir: string,
  samples: Sample[],
  extra: Record<string, string> = {},
): Promise<SampleCheck> {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const toRoot = relative(dir, root).split(sep).join('/');
  const paths = Object.fromEntries(Object.entries(WORKSPACE_ENTRIES).map(([spec, src]) => [spec, [`${toRoot}/${src}`]]));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      extends: `${toRoot}/tsconfig.base.json`,
      // Each file is a module even without an import, so that samples cannot clash.
      compilerOptions: { types: ['node'], moduleDetection: 'force', paths },
      include: ['*.ts'],
    }),
  );
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  linkWorkspaceDependencies(root, dir);

  const byName = new Map<string, Sample | undefined>();
  for (const sample of samples) {
    byName.set(sampleFileName(sample), sample);
    writeFileSync(join(dir, sampleFileName(sample)), sample.code);
  }
  for (const [name, code] of Object.entries(extra)) {
    byName.set(name, undefined);
    writeFileSync(join(dir, name), code);
  }

  const diagnostics = new Map<string, Diagnostic[]>([...byName.keys()].map((name) => [name, []]));
  const elsewhere: Diagnostic[] = [];
  for (;;) {
    let syntaxErrors = false;
    for (const d of parseTscOutput(await runTsc(root, join(dir, 'tsconfig.json')))) {
      const name = relative(dir, join(root, d.path));
      const sample = byName.get(name);
      const located = { where: sample ? `${sample.file}:${sample.line + d.line - 1}:${d.column}` : `${d.path}:${d.line}:${d.column}`, message: d.message };
      const found = diagnostics.get(name);
      if (!found) {
        elsewhere.push(located);
        continue;
      }
      found.push(located);
      if (/^TS1\d{3}:/.test(d.message)) syntaxErrors = true;
    }
    // tsc reports no type errors at all while any file has a syntax error (TS1xxx): check
    // the others again without the files that had one, so that nothing stays hidden.
    if (!syntaxErrors) break;
    for (const [name, found] of diagnostics) if (found.length > 0) rmSync(join(dir, name), { force: true });
    elsewhere.length = 0;
  }
  return { diagnostics, elsewhere };
}

/**
 * Samples import what a merchant installs beside our packages (msw, zod, lit, ...). pnpm
 * keeps those in each workspace package's own node_modules, out of reach of docs/, so the
 * scratch directory gets links to them.
 */
function linkWorkspaceDependencies(root: string, dir: string): void {
  const packageDirs = ['mock-server', ...['packages', 'examples'].flatMap((p) =>
    existsSync(join(root, p)) ? readdirSync(join(root, p)).map((name) => `${p}/${name}`) : [],
  )];
  for (const pkgDir of packageDirs) {
    const manifest = join(root, pkgDir, 'package.json');
    if (!existsSync(manifest)) continue;
    const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as Record<string, Record<string, string> | undefined>;
    const names = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies, ...pkg.peerDependencies });
    for (const name of names) {
      const from = join(root, pkgDir, 'node_modules', name);
      const to = join(dir, 'node_modules', name);
      if (name.startsWith('@sikaramp/') || existsSync(join(root, 'node_modules', name)) || existsSync(to) || !existsSync(from)) continue;
      mkdirSync(dirname(to), { recursive: true });
      symlinkSync(realpathSync(from), to, 'dir');
    }
  }
}

async function runTsc(root: string, tsconfig: string): Promise<string> {
  const tsc = join(root, 'node_modules', '.bin', 'tsc');
  try {
    const { stdout } = await promisify(execFile)(tsc, ['-p', tsconfig, '--noEmit', '--pretty', 'false'], {
      cwd: root,
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout;
  } catch (error) {
    // tsc exits 2 when it reports errors; anything without a report is a real failure.
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    if (stdout && /error TS\d+/.test(stdout)) return stdout;
    throw new Error(`tsc failed without diagnostics: ${stderr || stdout || String(error)}`);
  }
}

interface TscDiagnostic {
  path: string;
  line: number;
  column: number;
  message: string;
}

/** `path(line,col): error TS1234: text`, with indented continuation lines folded in. */
export function parseTscOutput(output: string): TscDiagnostic[] {
  const diagnostics: TscDiagnostic[] = [];
  for (const line of output.split(/\r?\n/)) {
    const m = /^(.+?)\((\d+),(\d+)\): error (TS\d+: .*)$/.exec(line);
    if (m) diagnostics.push({ path: m[1]!, line: Number(m[2]), column: Number(m[3]), message: m[4]! });
    else if (line.startsWith(' ') && diagnostics.length > 0) diagnostics.at(-1)!.message += `\n${line}`;
  }
  return diagnostics;
}
