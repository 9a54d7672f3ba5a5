import type { APIRoute } from 'astro';
import { apiSend } from '../../../console/runner-api.ts';

/** Downloads the project backup as backup_{projectId}_{timestamp}.json. */
export const GET: APIRoute = async (ctx) => {
  const id = Number(ctx.params.id);
  const res = await apiSend(ctx, 'GET', `/api/project/${id}/backup`);
  if (!res.ok) return new Response(null, { status: res.status });
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '');
  return new Response(res.body, {
    headers: { 'content-type': 'application/json', 'content-disposition': `attachment; filename="backup_${id}_${stamp}.json"` },
  });
};
