/** Largest webhook payload read; GitHub caps its payloads at 25 MB but push events are far smaller. */
export const MAX_DELIVERY_BYTES = 1024 * 1024;

/**
 * Reads a request body up to `limit` bytes. Returns null as soon as the body (or its declared
 * length) is larger, without buffering the rest, so oversized uploads cost little memory.
 * @example const body = await readLimitedBody(c.req.raw, MAX_DELIVERY_BYTES);
 */
export async function readLimitedBody(request: Request, limit: number): Promise<Buffer | null> {
  if (!request.body) return Buffer.alloc(0);
  if (Number(request.headers.get('content-length') ?? 0) > limit) {
    await request.body.cancel().catch(() => {});
    return null;
  }
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
