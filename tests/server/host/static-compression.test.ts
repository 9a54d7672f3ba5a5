import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { precompressDirectory } from '../../../src/server/host/precompress.ts';
import { serveStaticFile } from '../../../src/server/host/static-files.ts';
import { compressResponse, ONE_SHOT_MAX_BYTES } from '../../../src/server/http/compression.ts';

const SVG = `<svg xmlns="http://www.w3.org/2000/svg">${'<rect width="10" height="10" fill="#336699"/>'.repeat(60)}</svg>`;

describe('static files compressed at build time', () => {
  let root: string;
  let server: Server;
  let base = '';

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'signalbox-static-'));
    mkdirSync(join(root, '_astro'));
    writeFileSync(join(root, '_astro', 'logo.a1b2c3.svg'), SVG);
    writeFileSync(join(root, 'tiny.css'), 'body{margin:0}');
    writeFileSync(join(root, 'photo.png'), Buffer.alloc(4096, 7));
    expect(await precompressDirectory(root)).toBe(1);
    server = createServer((req, res) => { if (!serveStaticFile(root, req, res)) res.writeHead(404).end(); });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(root, { recursive: true, force: true });
  });

  const get = (path: string, headers: Record<string, string> = {}) => new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    request(base + path, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject).end();
  });

  it('writes .br and .gz twins only for compressible files of 1 KB and more', () => {
    expect(existsSync(join(root, '_astro', 'logo.a1b2c3.svg.br')) && existsSync(join(root, '_astro', 'logo.a1b2c3.svg.gz'))).toBe(true);
    expect(existsSync(join(root, 'tiny.css.br')) || existsSync(join(root, 'photo.png.br'))).toBe(false);
  });

  it('sends SVG as brotli or gzip as asked, plain otherwise, with Vary and immutable caching of hashed names', async () => {
    const path = '/_astro/logo.a1b2c3.svg';
    const br = await get(path, { 'accept-encoding': 'gzip, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toBe('image/svg+xml');
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(br.body).toString()).toBe(SVG);
    const gzip = await get(path, { 'accept-encoding': 'gzip' });
    expect(gunzipSync(gzip.body).toString()).toBe(SVG);
    const plain = await get(path);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(SVG);
  });

  it('sends small files and already-compressed types as they are', async () => {
    const css = await get('/tiny.css', { 'accept-encoding': 'br' });
    expect(css.headers['content-encoding']).toBeUndefined();
    expect(css.headers['cache-control']).toBe('public, max-age=86400');
    const png = await get('/photo.png', { 'accept-encoding': 'br' });
    expect(png.headers['content-encoding']).toBeUndefined();
    expect(png.headers.vary).toBeUndefined();
    expect(png.body.length).toBe(4096);
  });

  it('answers a malformed escape in the path with a miss instead of throwing', async () => {
    expect((await get('/%E0%A4%A.js')).status).toBe(404);
  });
});

describe('dynamic compression of a response', () => {
  const asked = new Request('http://x/', { headers: { 'accept-encoding': 'br' } });

  it('compresses SVG, skips already-compressed types, HEAD, bodies under 1 KB and no-transform', async () => {
    const svg = await compressResponse(asked, new Response(SVG, { headers: { 'content-type': 'image/svg+xml' } }));
    expect(svg.headers.get('content-encoding')).toBe('br');
    expect(brotliDecompressSync(Buffer.from(await svg.arrayBuffer())).toString()).toBe(SVG);
    const zip = await compressResponse(asked, new Response(Buffer.alloc(4096), { headers: { 'content-type': 'application/zip' } }));
    expect(zip.headers.get('content-encoding')).toBeNull();
    const small = await compressResponse(asked, new Response('{"ok":true}', { headers: { 'content-type': 'application/json' } }));
    expect(small.headers.get('content-encoding')).toBeNull();
    expect(await small.text()).toBe('{"ok":true}');
    const head = await compressResponse(new Request('http://x/', { method: 'HEAD', headers: { 'accept-encoding': 'br' } }), new Response(SVG, { headers: { 'content-type': 'image/svg+xml' } }));
    expect(head.headers.get('content-encoding')).toBeNull();
    const kept = await compressResponse(asked, new Response(SVG, { headers: { 'content-type': 'image/svg+xml', 'cache-control': 'no-transform' } }));
    expect(kept.headers.get('content-encoding')).toBeNull();
  });

  /** A body sent in many small chunks, as a rendered page is. */
  const chunked = (text: string, chunk = 200) => new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < text.length; i += chunk) controller.enqueue(new TextEncoder().encode(text.slice(i, i + chunk)));
      controller.close();
    },
  });
  const page = (bytes: number) => `<!doctype html>${'<tr><td>run</td><td>Success</td></tr>\n'.repeat(Math.ceil(bytes / 38))}`.slice(0, bytes);

  it('compresses a page that ends within the one-shot limit in one piece, with its compressed length', async () => {
    const html = page(ONE_SHOT_MAX_BYTES - 100);
    for (const encoding of ['br', 'gzip'] as const) {
      const res = await compressResponse(new Request('http://x/', { headers: { 'accept-encoding': encoding } }), new Response(chunked(html), { headers: { 'content-type': 'text/html' } }));
      const body = Buffer.from(await res.arrayBuffer());
      expect(res.headers.get('content-encoding')).toBe(encoding);
      expect(Number(res.headers.get('content-length'))).toBe(body.byteLength);
      expect((encoding === 'br' ? brotliDecompressSync(body) : gunzipSync(body)).toString()).toBe(html);
    }
  });

  it('streams a longer body without a length, and leaves a body in many chunks under 1 KB as it is', async () => {
    const html = page(3 * ONE_SHOT_MAX_BYTES);
    const res = await compressResponse(asked, new Response(chunked(html, 4096), { headers: { 'content-type': 'text/html' } }));
    expect(res.headers.get('content-length')).toBeNull();
    expect(brotliDecompressSync(Buffer.from(await res.arrayBuffer())).toString()).toBe(html);
    const tiny = await compressResponse(asked, new Response(chunked(page(900), 100), { headers: { 'content-type': 'text/html' } }));
    expect(tiny.headers.get('content-encoding')).toBeNull();
    expect(await tiny.text()).toBe(page(900));
  });

  it('says Vary: Accept-Encoding on a compressible answer sent plain to a client that asks for no encoding', async () => {
    const plain = await compressResponse(new Request('http://x/'), new Response(SVG, { headers: { 'content-type': 'image/svg+xml', vary: 'Cookie' } }));
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toBe('Cookie, Accept-Encoding');
    expect(await plain.text()).toBe(SVG);
  });
});
