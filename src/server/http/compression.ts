import { brotliCompressSync, constants, createBrotliCompress, createGzip, gzipSync, type BrotliCompress, type Gzip } from 'node:zlib';
import { Readable } from 'node:stream';
import { COMPRESSIBLE_CONTENT_TYPE_REGEX } from 'hono/utils/compress';

export type Encoding = 'br' | 'gzip';

/** Bodies smaller than this are sent as they are: compression would cost more than it saves. */
export const MIN_COMPRESS_BYTES = 1024;
/**
 * Brotli quality for responses made per request: 4 compresses about as well as gzip -6 at a
 * similar speed, where the default 11 takes tens of times longer (build-time assets use 11).
 */
const DYNAMIC_BROTLI_QUALITY = 4;
/**
 * Bodies that end within this many bytes (pages, API answers) are compressed in one synchronous
 * call; longer ones stream. A stream flushes after every chunk, and a page comes in hundreds of
 * small chunks; zlib's thread pool allocates in its own malloc arenas per call. Both cost more
 * CPU than the compression (a 33 KB page: 0.6 ms in one call on the main thread, 2.5 ms
 * streamed), and the arenas grew the server's RSS under load.
 */
export const ONE_SHOT_MAX_BYTES = 64 * 1024;

/**
 * The encodings an `Accept-Encoding` header allows, brotli first; a `q=0` refuses one.
 * @example acceptedEncodings('gzip, deflate, br') // ['br', 'gzip']
 */
export function acceptedEncodings(acceptEncoding: string | null | undefined): Encoding[] {
  const accepted = new Set<string>();
  for (const part of (acceptEncoding ?? '').toLowerCase().split(',')) {
    const [name = '', ...params] = part.split(';').map((s) => s.trim());
    const q = params.find((p) => p.startsWith('q='));
    if (!q || Number(q.slice(2)) > 0) accepted.add(name);
  }
  const any = accepted.has('*');
  return (['br', 'gzip'] as const).filter((e) => accepted.has(e) || any);
}

/** @example negotiateEncoding('gzip, br') === 'br' */
export function negotiateEncoding(acceptEncoding: string | null | undefined): Encoding | null {
  return acceptedEncodings(acceptEncoding)[0] ?? null;
}

/** Whether a response of this content type is worth compressing (text, JSON, JS, CSS, SVG...). */
export function isCompressibleType(contentType: string | null): boolean {
  return Boolean(contentType && COMPRESSIBLE_CONTENT_TYPE_REGEX.test(contentType));
}

/**
 * The response compressed for the request's `Accept-Encoding`. A body that ends within
 * ONE_SHOT_MAX_BYTES is compressed whole; a longer one streams: each chunk is compressed and
 * flushed as it comes, so a long log starts arriving at once and is never held whole. Left
 * alone: HEAD, bodiless and partial answers, already-encoded bodies, `no-transform`, types that
 * do not compress, and bodies under 1 KB. Compressible types always say `Vary: Accept-Encoding`.
 * @example return compressResponse(request, await next());
 */
export async function compressResponse(request: Request, response: Response): Promise<Response> {
  if (!response.body || request.method === 'HEAD' || response.status === 204 || response.status === 206 || response.status === 304) return response;
  if (response.headers.has('content-encoding') || !isCompressibleType(response.headers.get('content-type'))) return response;
  if (/(?:^|,)\s*no-transform\s*(?:,|$)/i.test(response.headers.get('cache-control') ?? '')) return response;
  const encoding = negotiateEncoding(request.headers.get('accept-encoding'));
  const length = response.headers.get('content-length');
  if (!encoding || (length !== null && Number(length) < MIN_COMPRESS_BYTES)) return withVary(response);

  const headers = new Headers(response.headers);
  addVary(headers);
  const init = { status: response.status, statusText: response.statusText, headers };
  const reader = response.body.getReader();
  const head = await readUpTo(reader, ONE_SHOT_MAX_BYTES);
  if (head.ended) {
    const body = Buffer.concat(head.chunks);
    if (body.byteLength < MIN_COMPRESS_BYTES) return new Response(body, init);
    const compressed = compressWhole(body, encoding);
    headers.set('content-encoding', encoding);
    headers.set('content-length', String(compressed.byteLength));
    return new Response(compressed, init);
  }
  const compressor = createCompressor(encoding);
  void pump(reader, head.chunks, compressor);
  headers.delete('content-length');
  headers.set('content-encoding', encoding);
  return new Response(Readable.toWeb(compressor) as ReadableStream<Uint8Array>, init);
}

/** The response with `Vary: Accept-Encoding` added, in place where its headers allow it. */
function withVary(response: Response): Response {
  try {
    addVary(response.headers);
    return response;
  } catch {
    // a fetched response's headers are immutable: copy them
    const headers = new Headers(response.headers);
    addVary(headers);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
}

/** The body's first chunks, until `max` bytes are held or it ends. */
async function readUpTo(reader: ReadableStreamDefaultReader<Uint8Array>, max: number): Promise<{ chunks: Uint8Array[]; ended: boolean }> {
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  while (bytes < max) {
    const { done, value } = await reader.read();
    if (done) return { chunks, ended: true };
    chunks.push(value);
    bytes += value.byteLength;
  }
  return { chunks, ended: false };
}

function compressWhole(body: Buffer, encoding: Encoding): Buffer<ArrayBuffer> {
  if (encoding === 'gzip') return gzipSync(body) as Buffer<ArrayBuffer>;
  return brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: DYNAMIC_BROTLI_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength } }) as Buffer<ArrayBuffer>;
}

/** A Node zlib stream for `encoding` at dynamic-response settings. */
export function createCompressor(encoding: Encoding, quality = DYNAMIC_BROTLI_QUALITY): BrotliCompress | Gzip {
  return encoding === 'br'
    ? createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: quality } })
    : createGzip();
}

/** Feeds the body into the compressor chunk by chunk, waiting while the client is slow to read. */
async function pump(reader: ReadableStreamDefaultReader<Uint8Array>, head: Uint8Array[], compressor: BrotliCompress | Gzip): Promise<void> {
  compressor.once('close', () => void reader.cancel().catch(() => undefined));
  try {
    const write = async (chunk: Uint8Array) => {
      if (!compressor.write(chunk)) await drainedOrClosed(compressor);
      compressor.flush();
    };
    for (const chunk of head) await write(chunk);
    while (!compressor.destroyed) {
      const { done, value } = await reader.read();
      if (done) break;
      await write(value);
    }
    compressor.end();
  } catch (err) {
    compressor.destroy(err as Error);
  }
}

function drainedOrClosed(stream: BrotliCompress | Gzip): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}

function addVary(headers: Headers): void {
  const vary = headers.get('vary');
  if (vary === '*' || /(?:^|,)\s*accept-encoding\s*(?:,|$)/i.test(vary ?? '')) return;
  headers.set('vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
}
