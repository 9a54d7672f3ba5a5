import { createReadStream, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { acceptedEncodings, isCompressibleType } from '../http/compression.ts';
import { ownValue } from '../lib/own-value.ts';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml', '.png': 'image/png', '.ico': 'image/x-icon', '.json': 'application/json',
  '.woff2': 'font/woff2', '.txt': 'text/plain; charset=utf-8', '.webmanifest': 'application/manifest+json',
};

/**
 * Serves a file from the built client folder when the path names one; returns false otherwise.
 * Hashed build assets (`/_astro/`) are cached for a year, other files for a day. A text file
 * goes out as its `.br` or `.gz` twin made at build time (precompress.ts, from astro.config.mjs) when the browser
 * accepts that encoding.
 */
export function serveStaticFile(root: string, req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const pathname = decodePath(req.url ?? '/');
  if (pathname === null || !extname(pathname)) return false;
  const file = normalize(join(root, pathname));
  if (!file.startsWith(root)) return false;
  const size = fileSize(file);
  if (size === null) return false;
  const type = ownValue(TYPES, extname(file)) ?? 'application/octet-stream';
  const compressible = isCompressibleType(type);
  const twin = compressible ? precompressedTwin(file, req.headers['accept-encoding']) : null;
  const immutable = pathname.startsWith('/_astro/');
  res.writeHead(200, {
    'content-type': type,
    'content-length': twin?.size ?? size,
    'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=86400',
    ...(compressible ? { vary: 'Accept-Encoding' } : {}),
    ...(twin ? { 'content-encoding': twin.encoding } : {}),
  });
  if (req.method === 'HEAD') res.end();
  else createReadStream(twin?.file ?? file).pipe(res);
  return true;
}

/** The build-time compressed copy of `file` in the best encoding the client accepts, if there is one. */
function precompressedTwin(file: string, acceptEncoding: string | undefined): { file: string; encoding: string; size: number } | null {
  for (const encoding of acceptedEncodings(acceptEncoding)) {
    const twin = `${file}.${encoding === 'br' ? 'br' : 'gz'}`;
    const size = fileSize(twin);
    if (size !== null) return { file: twin, encoding, size };
  }
  return null;
}

/**
 * The decoded path of a request URL, or null when its percent-escapes are malformed (`/%`).
 * @example decodePath('/a%20b?x') // '/a b'
 */
export function decodePath(url: string): string | null {
  try {
    return decodeURIComponent(new URL(url, 'http://x').pathname);
  } catch {
    return null;
  }
}

function fileSize(file: string): number | null {
  try {
    const stat = statSync(file);
    return stat.isFile() ? stat.size : null;
  } catch {
    return null;
  }
}
