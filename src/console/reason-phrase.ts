import { STATUS_CODES } from 'node:http';

/**
 * The response with the reason phrase of its status code: Astro keeps "OK" for a page that
 * sets `Astro.response.status = 400`, and the status line then reads `400 OK`.
 * @example return withReasonPhrase(await next());
 */
export function withReasonPhrase(response: Response): Response {
  const reason = STATUS_CODES[response.status];
  if (!reason || response.statusText === reason) return response;
  return new Response(response.body, { status: response.status, statusText: reason, headers: response.headers });
}
