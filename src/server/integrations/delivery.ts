import { jsonDepth, MAX_JSON_DEPTH } from '../http/validation.ts';
import { apiBodyBudget } from '../http/body-limits.ts';
import { parseBoundedJson } from '../http/json-budget.ts';

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

/** How many keys and elements a delivery's JSON may hold (an API body's regular budget). */
const MAX_DELIVERY_VALUES = apiBodyBudget('POST', '/api/integrations').values;

/**
 * Builds a delivery from the raw request parts; the JSON parse happens here, once. A body nested
 * deeper, or holding more keys and elements, than any API body may counts as not JSON.
 */
export function toDelivery(headers: Headers, body: Buffer): Delivery {
  const text = body.toString('utf8');
  try {
    const json: unknown = parseBoundedJson(text, MAX_DELIVERY_VALUES);
    if (jsonDepth(json) > MAX_JSON_DEPTH) throw new Error('nested too deeply');
    return { headers, body, text, json, jsonValid: true };
  } catch {
    return { headers, body, text, json: undefined, jsonValid: false };
  }
}
