import { createReadStream, createWriteStream, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { constants, createBrotliCompress, createGzip } from 'node:zlib';
import { MIN_COMPRESS_BYTES } from '../http/compression.ts';

/** Built files worth compressing: scripts, styles, pages, SVG, JSON and text. */
const COMPRESSIBLE_FILE = /\.(?:m?js|css|html|svg|json|txt|xml|webmanifest)$/;

/**
 * Build step: writes `<file>.br` (brotli, best quality) and `<file>.gz` (gzip -9) beside every
 * compressible file of at least 1 KB under `dir`, once, so the server sends them with no work
 * per request. Returns how many files it compressed.
 * @example await precompressDirectory('dist/client');
 */
export async function precompressDirectory(dir: string): Promise<number> {
  let count = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const file = join(entry.parentPath, entry.name);
    if (!entry.isFile() || !COMPRESSIBLE_FILE.test(entry.name) || statSync(file).size < MIN_COMPRESS_BYTES) continue;
    await Promise.all([
      pipeline(createReadStream(file), createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY } }), createWriteStream(`${file}.br`)),
      pipeline(createReadStream(file), createGzip({ level: 9 }), createWriteStream(`${file}.gz`)),
    ]);
    count++;
  }
  return count;
}
