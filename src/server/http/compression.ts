import { constants, createBrotliCompress, createGzip, type BrotliCompress, type Gzip } from 'node:zlib';
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
 * The response compressed for the request's `Accept-Encoding`, streaming: each chunk of the
 * body is compressed and flushed as it comes, so a long log starts arriving at once and is never
 * held whole. Left alone: HEAD, bodiless and partial answers, already-encoded bodies,
 * `no-transform`, types that do not compress, and bodies under 1 KB (read to find out, at most
 * that much is held). Compressible types always say `Vary: Accept-Encoding`.
 * @example return compressResponse(request, await next());
 */
export async function compressResponse(request: Request, response: Response): Promise<Response> {
  const headers = new Headers(response.headers);
  if (!response.body || request.method === 'HEAD' || response.status === 204 || response.status === 206 || response.status === 304) return response;
  if (headers.has('content-encoding') || !isCompressibleType(headers.get('content-type'))) return response;
  if (/(?:^|,)\s*no-transform\s*(?:,|$)/i.test(headers.get('cache-control') ?? '')) return response;
  addVary(headers);
  const encoding = negotiateEncoding(request.headers.get('accept-encoding'));
  const length = headers.get('content-length');
  const init = { status: response.status, statusText: response.statusText, headers };
  if (!encoding || (length !== null && Number(length) < MIN_COMPRESS_BYTES)) return new Response(response.body, init);

  const reader = response.body.getReader();
  const head: Uint8Array[] = [];
  let headBytes = 0;
  let ended = false;
  while (headBytes < MIN_COMPRESS_BYTES) {
    const { done, value } = await reader.read();
    if (done) { ended = true; break; }
    head.push(value);
    headBytes += value.byteLength;
  }
  if (ended && headBytes < MIN_COMPRESS_BYTES) return new Response(Buffer.concat(head), init);

  const compressor = createCompressor(encoding);
  void pump(reader, head, ended, compressor);
  headers.delete('content-length');
  headers.set('content-encoding', encoding);
  return new Response(Readable.toWeb(compressor) as ReadableStream<Uint8Array>, init);
}

/** A Node zlib stream for `encoding` at dynamic-response settings. */
export function createCompressor(encoding: Encoding, quality = DYNAMIC_BROTLI_QUALITY): BrotliCompress | Gzip {
  return encoding === 'br'
    ? createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: quality } })
    : createGzip();
}

/** Feeds the body into the compressor chunk by chunk, waiting while the client is slow to read. */
async function pump(reader: ReadableStreamDefaultReader<Uint8Array>, head: Uint8Array[], ended: boolean, compressor: BrotliCompress | Gzip): Promise<void> {
  compressor.once('close', () => void reader.cancel().catch(() => undefined));
  try {
    const write = async (chunk: Uint8Array) => {
      if (!compressor.write(chunk)) await drainedOrClosed(compressor);
      compressor.flush();
    };
    for (const chunk of head) await write(chunk);
    while (!ended && !compressor.destroyed) {
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
