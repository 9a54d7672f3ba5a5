import { ApiError } from './errors.ts';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;

/**
 * Whether JSON text holds more than `max` values (object members and array elements, the
 * top-level value included), judged from the text before anything is parsed: every value but
 * the first follows a `,` or opens a container's first slot, so counting those outside strings
 * bounds the count from above. Stops at the first value over, so refusing a hostile body costs
 * no more than reading `max` of its values.
 * @example jsonValuesOver('{"a":1,"b":[2,3]}', 3) // true (a, b, 2, 3 and the object itself)
 */
export function jsonValuesOver(text: string, max: number): boolean {
  let count = 1;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === QUOTE) at = closingQuote(text, at);
    else if ((code === COMMA || code === OPEN_BRACE || code === OPEN_BRACKET) && ++count > max) return true;
  }
  return false;
}

/** Where the string opened at `open` ends (an escaped quote does not end it). */
function closingQuote(text: string, open: number): number {
  for (let from = open + 1; ;) {
    const quote = text.indexOf('"', from);
    if (quote < 0) return text.length;
    let slashes = 0;
    while (text.charCodeAt(quote - 1 - slashes) === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return quote;
    from = quote + 1;
  }
}

/**
 * JSON.parse with a ceiling on the number of values, checked on the text first so an oversized
 * body never reaches the parser (parsing 800,000 keys held the event loop for seconds).
 * Throws a 413 ApiError for too many values; JSON.parse's own SyntaxError for malformed text.
 * @example const value = parseBoundedJson(text, 100_000);
 */
export function parseBoundedJson(text: string, maxValues: number): unknown {
  if (jsonValuesOver(text, maxValues)) throw new ApiError('too_large', `body: more than ${maxValues} keys and elements`);
  return JSON.parse(text);
}
