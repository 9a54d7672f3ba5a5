import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface AttackerSite {
  /** the attacker's origin: the same loopback host as the target, another port (same-site) */
  url: string;
  close: () => Promise<void>;
}

/**
 * A page server on a second loopback port, as an attacker's site would be: `pages` maps a path
 * to the HTML served there.
 * @example const evil = await startAttackerSite({ '/': '<form …>' }); await page.goto(evil.url + '/');
 */
export async function startAttackerSite(pages: Record<string, string>): Promise<AttackerSite> {
  const server: Server = createServer((req, res) => {
    const html = pages[new URL(req.url ?? '/', 'http://x').pathname];
    res.writeHead(html ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' }).end(html ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

/** A page that posts a form to `action` as soon as it loads (the classic CSRF page). */
export function autoSubmittingForm(action: string, fields: Record<string, string>): string {
  const inputs = Object.entries(fields).map(([k, v]) => `<input type="hidden" name="${k}" value="${v}">`).join('');
  return `<!doctype html><form method="post" action="${action}">${inputs}</form><script>document.forms[0].submit()</script>`;
}
