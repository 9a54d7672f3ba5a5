import type { APIRoute } from 'astro';
import { apiSend, readErrorText } from '../../console/runner-api.ts';

/**
 * POST /auth/logout: ends the session in the runner API, clears its cookie, back to sign-in. A
 * refusal is an error page, never a quiet redirect that would leave the session alive.
 */
export const POST: APIRoute = async (ctx) => {
  const res = await apiSend(ctx, 'POST', '/api/auth/logout');
  if (!res.ok) throw new Error(`sign-out refused: ${res.status} ${await readErrorText(res)}`);
  const headers = new Headers({ location: '/auth/login' });
  for (const cookie of res.headers.getSetCookie()) headers.append('set-cookie', cookie);
  return new Response(null, { status: 303, headers });
};
