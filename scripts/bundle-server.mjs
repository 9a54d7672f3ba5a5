// Bundles the server (src/server/cli/main.ts and all it imports of our own) into one JavaScript
// file, build/server/signalbox.mjs, which scripts/start.sh runs. Node then loads no TypeScript at
// run time (its type stripping costs ~18 MB of RSS) and far fewer module records. Packages in
// node_modules stay imports. `import.meta.url` in a bundled file still means that file's place
// in src/, so the paths it resolves (package.json, dist/, demo files) stay right.
import { build } from 'esbuild';
import { relative, dirname, join } from 'node:path';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outfile = join(root, 'build/server/signalbox.mjs');

const keepImportMetaUrl = {
  name: 'keep-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async (args) => {
      let text = await readFile(args.path, 'utf8');
      if (text.includes('import.meta.url')) {
        const fromBundle = relative(dirname(outfile), args.path).split('\\').join('/');
        text = text.replaceAll('import.meta.url', `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`);
      }
      return { contents: text, loader: 'ts' };
    });
  },
};

await build({
  entryPoints: [join(root, 'src/server/cli/main.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  packages: 'external',
  sourcemap: 'linked',
  legalComments: 'none',
  // CommonJS packages bundled into an ES module still call require() for Node's built-ins
  banner: { js: "import { createRequire as __signalboxRequire } from 'node:module'; const require = __signalboxRequire(import.meta.url);" },
  logLevel: 'warning',
  plugins: [keepImportMetaUrl],
});
