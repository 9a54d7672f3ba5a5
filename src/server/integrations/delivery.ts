/**
 * One incoming webhook call, read once and shared by every integration the alias resolves to
 * (Semaphore 2.10 read the body inside its per-integration loop, so only the first one saw it).
 */
export interface Delivery {
  headers: Headers;
  body: Buffer;
  text: string;
  /** the body parsed as JSON; undefined when it is not JSON */
  json: unknown;
  jsonValid: boolean;
}

/** Builds a delivery from the raw request parts; the JSON parse happens here, once. */
export function toDelivery(headers: Headers, body: Buffer): Delivery {
  const text = body.toString('utf8');
  try {
    return { headers, body, text, json: JSON.parse(text), jsonValid: true };
  } catch {
    return { headers, body, text, json: undefined, jsonValid: false };
  }
}
