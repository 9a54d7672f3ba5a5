import type { APIRoute } from 'astro';
import { apiSend } from '../../console/runner-api.ts';

/** POST /auth/logout: ends the session in the runner API, clears its cookie, back to sign-in. */
export const POST: APIRoute = async (ctx) => {
  const res = await apiSend(ctx, 'POST', '/api/auth/logout');
  const headers = new Headers({ location: '/auth/login' });
  for (const cookie of res.headers.getSetCookie()) headers.append('set-cookie', cookie);
  return new Response(null, { status: 303, headers });
};
