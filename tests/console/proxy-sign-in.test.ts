import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startConsoleServer, type ConsoleServer } from './support/console-server.ts';
import { launchBrowser } from './support/browser.ts';
import { proxySettings, startJwtProxy, type JwtProxy } from '../support/jwt-proxy.ts';

// Behind an identity-aware proxy (issue 51, item 1) the console's pages are signed in by the
// proxy's JWT header alone: no sign-in form, the proxy's user named in the shell; a token the
// proxy did not sign leads to the sign-in page as no header does.
let server: ConsoleServer;
let proxy: JwtProxy;
let browser: Browser;

const claims = { sub: 'proxy-user-pia', email: 'pia@corp.test', name: 'Pia Proxy' };

/** A browser whose every request carries `token` in Pomerium's header, as the proxy would add it. */
async function pageBehindProxy(token: string) {
  const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 }, extraHTTPHeaders: { 'X-Pomerium-Jwt-Assertion': token } });
  return context.newPage();
}

describe('console behind an identity-aware proxy', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    proxy = await startJwtProxy();
    server = await startConsoleServer(proxySettings(proxy));
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await proxy?.stop();
  });

  it("a valid token opens the console as the proxy's user, and the sign-in page sends it on", async () => {
    const page = await pageBehindProxy(await proxy.sign({ claims }));
    const answer = await page.goto(`${server.url}/`);
    expect(answer?.status()).toBe(200);
    expect(new URL(page.url()).pathname).not.toMatch(/^\/auth\//);
    await expect.poll(() => page.content()).toContain('Pia Proxy');
    await page.goto(`${server.url}/auth/login`);
    expect(new URL(page.url()).pathname).not.toMatch(/^\/auth\//);
    await page.context().close();
  });

  it('a token signed by another key, or expired, leads to the sign-in page', async () => {
    for (const token of [await proxy.signWithStrangerKey({ claims }), await proxy.sign({ claims, expiresIn: -600 })]) {
      const page = await pageBehindProxy(token);
      await page.goto(`${server.url}/`);
      expect(new URL(page.url()).pathname).toBe('/auth/login');
      await page.context().close();
    }
  });
});
