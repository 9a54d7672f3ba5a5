import { gzipSync } from 'node:zlib';

/**
 * Gzip bytes of every JavaScript module a page loads on first view: module scripts, island
 * components and renderers, and everything they import, each counted once.
 * @example const { bytes, modules } = await measurePageJs(url, cookie);
 */
export async function measurePageJs(pageUrl: string, cookie = ''): Promise<{ bytes: number; modules: string[]; html: string }> {
  const html = await (await fetch(pageUrl, { headers: { cookie } })).text();
  const roots = [
    ...[...html.matchAll(/<script[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1]!),
    ...[...html.matchAll(/(?:component-url|renderer-url)="([^"]+)"/g)].map((m) => m[1]!),
  ];
  const inline = [...html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!).filter((s) => s.trim());
  const seen = new Set<string>();
  let bytes = inline.reduce((sum, code) => sum + gzipSync(code).length, 0);
  const queue = roots.map((src) => new URL(src, pageUrl).href);
  for (const src of inline) for (const m of src.matchAll(/(?:import|from)\s*["']([^"']+\.js)["']/g)) queue.push(new URL(m[1]!, pageUrl).href);
  while (queue.length) {
    const url = queue.shift()!;
    if (seen.has(url)) continue;
    seen.add(url);
    const code = await (await fetch(url)).text();
    bytes += gzipSync(code).length;
    for (const m of code.matchAll(/(?:import|from)\s*\(?\s*["']([^"']+\.js)["']/g)) queue.push(new URL(m[1]!, url).href);
  }
  return { bytes, modules: [...seen], html };
}
