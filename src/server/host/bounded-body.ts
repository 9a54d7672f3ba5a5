import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Reads a request body of at most `limit` bytes into memory. Resolves null, having read no
 * more than the limit, when the declared `Content-Length` or the bytes streamed so far (a
 * chunked body) are larger; also when the client goes away mid-body. The stream is paused,
 * not destroyed, so an answer can still be written on its connection.
 * @example const body = await readBoundedBody(req, 1024 * 1024); if (!body) return refuseTooLarge(res, false);
 */
export function readBoundedBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  if (Number(req.headers['content-length'] ?? 0) > limit) return Promise.resolve(null);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const finish = (body: Buffer | null) => {
      req.off('data', onData).off('end', onEnd).off('error', onGone).off('aborted', onGone);
      // a late error on a body nobody reads any more has nothing left to tell
      req.on('error', () => {});
      resolve(body);
    };
    const onData = (chunk: Buffer) => {
      total += chunk.byteLength;
      if (total <= limit) return void chunks.push(chunk);
      req.pause();
      finish(null);
    };
    const onEnd = () => finish(Buffer.concat(chunks));
    const onGone = () => finish(null);
    req.on('data', onData).on('end', onEnd).on('error', onGone).on('aborted', onGone);
  });
}

/** Whether the request carries a body at all (declared length above 0, or chunked). */
export function hasRequestBody(req: IncomingMessage): boolean {
  return Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
}

/**
 * Answers 413 and closes the connection, so the rest of an oversized upload is never read.
 * `api` chooses the JSON error of the runner API over the console's short page.
 */
export function refuseTooLarge(res: ServerResponse, api: boolean): void {
  if (res.headersSent) return void res.destroy();
  const [type, body] = api
    ? ['application/json', JSON.stringify({ error: 'request body is too large' })]
    : ['text/html; charset=utf-8', '<!doctype html><title>413</title><h1>Request body too large</h1>'];
  res.writeHead(413, { 'content-type': type, connection: 'close' }).end(body);
}
