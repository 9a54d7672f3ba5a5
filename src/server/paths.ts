import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The checkout's root: the nearest folder above this module holding Signalbox's package.json.
 * Found by walking up rather than by a fixed `../..`, because the server also runs bundled into
 * one file under dist/ (scripts/install.sh bundles it), from another depth.
 */
function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'signalbox') return dir;
    if (dirname(dir) === dir) throw new Error(`no Signalbox package.json above ${from}`);
  }
}

export const ROOT_DIR = findRoot(dirname(fileURLToPath(import.meta.url)));
/** The built console (Astro's client and server output). */
export const DIST_DIR = join(ROOT_DIR, 'dist');
