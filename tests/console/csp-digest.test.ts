import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cspDigest, generateCspDigest } from '../../src/console/csp-digest.ts';
import { ASTRO_DIGEST_IMPORT, ASTRO_PAGE_STATE } from '../../src/console/csp-digest-plugin.ts';

const ASTRO_DIST = new URL('../../node_modules/astro/dist/', import.meta.url);

/** Astro's own digest, the one the console build replaces. */
async function astroDigest(text: string, algorithm: string): Promise<string> {
  const encryption = (await import(new URL('core/encryption.js', ASTRO_DIST).href)) as { generateCspDigest: (t: string, a: string) => Promise<string> };
  return encryption.generateCspDigest(text, algorithm);
}

describe('CSP digests made once per text', () => {
  it('gives what Astro gives, for every algorithm it offers', async () => {
    for (const algorithm of ['SHA-256', 'SHA-384', 'SHA-512']) {
      for (const text of ['', 'body { color: red }', 'console.log("é ✓ \\u2028")', 'x'.repeat(100_000)]) {
        expect(await generateCspDigest(text, algorithm)).toBe(await astroDigest(text, algorithm));
      }
    }
    expect(cspDigest('', 'SHA-256')).toBe('sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=');
  });

  it('replaces the import that Astro\'s page pipeline makes, and only the digest', () => {
    const pageState = readFileSync(new URL(`.${ASTRO_PAGE_STATE.replace('/astro/dist', '')}`, ASTRO_DIST), 'utf8');
    const imports = [...pageState.matchAll(/import\s*\{([^}]*)\}\s*from\s*["']\.\.\/encryption\.js["']/g)].map((m) => m[1]!.trim());
    expect(ASTRO_DIGEST_IMPORT).toBe('../encryption.js');
    expect(imports).toEqual(['generateCspDigest']);
  });
});
