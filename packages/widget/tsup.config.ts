import { execFileSync } from 'node:child_process';
import { copyFileSync, statSync } from 'node:fs';
import { setTimeout } from 'node:timers/promises';
import { createRequire } from 'node:module';
import { defineConfig } from 'tsup';

/** When this build began: the index.d.ts written after it is this build's. */
const started = Date.now();
const written = (file: string) => (statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0) >= started;

export default defineConfig({
  // freighter.ts is its own file, loaded by a dynamic import that stays one (see freighter.ts).
  // react.ts is the @sikaramp/widget/react subpath: it imports index.js, so the element is not copied into it.
  entry: ['src/index.ts', 'src/freighter.ts', 'src/react.ts'],
  format: ['esm'],
  target: 'es2022',
  platform: 'browser',
  dts: { entry: ['src/index.ts', 'src/react.ts'] },
  sourcemap: true,
  clean: true,
  // Each file self-contained: a chunk shared by the two would be loaded with index.js.
  splitting: false,
  external: ['./freighter.js', './index.js'],
  // @lit/react (800 B gzipped) is bundled into react.js: as a dependency it would bring its
  // required peer @types/react into every install, React or not.
  noExternal: ['@stellar/freighter-api', '@lit/react'],
  // dist/custom-elements.json, from the source by the standard analyzer (custom-elements-manifest.config.mjs),
  // with every build: so the manifest the package ships never lags the element. And dist/jsx-react.d.ts,
  // an augmentation of React's JSX and nothing else, written as a .d.ts (it has no entry to build).
  onSuccess: async () => {
    const cem = createRequire(import.meta.url).resolve('@custom-elements-manifest/analyzer/cem.js');
    execFileSync(process.execPath, [cem, 'analyze', '--quiet', '--config', 'custom-elements-manifest.config.mjs'], { stdio: 'inherit' });
    // The .d.ts build, running beside this, removes every dist/*.d.ts as it starts and writes
    // index.d.ts as it ends: copy after that.
    for (let waited = 0; !written('dist/index.d.ts'); waited += 100) {
      if (waited > 120_000) throw Error('dist/index.d.ts was not written');
      await setTimeout(100);
    }
    copyFileSync('src/jsx-react.d.ts', 'dist/jsx-react.d.ts');
  },
});
