// The icon sprite (src/components/icon-sprite.ts), written into the client build as a static file.
import type { APIRoute } from 'astro';
import { iconSprite } from '../components/icon-sprite.ts';

export const prerender = true;

export const GET: APIRoute = () => new Response(iconSprite(), { headers: { 'content-type': 'image/svg+xml' } });
