import { gzipSync } from 'node:zlib';

/**
 * Gzip bytes of the CSS a page loads: every stylesheet link and inline <style>, each counted once.
 * @example const { bytes } = await measurePageCss(url, cookie);
 */
export async function measurePageCss(pageUrl: string, cookie = ''): Promise<{ bytes: number; sheets: string[] }> {
  const html = await (await fetch(pageUrl, { headers: { cookie } })).text();
  const links = [...html.matchAll(/<link\b[^>]*rel="stylesheet"[^>]*>/g)].map((m) => /href="([^"]+)"/.exec(m[0])?.[1]).filter((h): h is string => Boolean(h));
  const inline = [...html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/g)].map((m) => m[1]!);
  const sheets = [...new Set(links.map((href) => new URL(href, pageUrl).href))];
  const texts = [...inline, ...(await Promise.all(sheets.map(async (url) => (await fetch(url)).text())))];
  return { bytes: gzipSync(texts.join('\n')).length, sheets };
}
