import { fileURLToPath } from 'node:url';

/** The module of Astro's request pipeline that digests a page's head elements, and its import of the digest. */
export const ASTRO_PAGE_STATE = '/astro/dist/core/fetch/fetch-state.js';
export const ASTRO_DIGEST_IMPORT = '../encryption.js';
const MEMOISED_DIGEST = fileURLToPath(new URL('./csp-digest.ts', import.meta.url));

/**
 * Vite plugin: Astro's page pipeline gets csp-digest.ts's generateCspDigest (one digest per
 * text, kept) instead of its own (a WebCrypto job per text per request); everything else keeps
 * Astro's module. The build fails if Astro no longer imports the digest from there, so an
 * Astro upgrade cannot silently bring the per-request work back (tests/console/csp-digest.test.ts
 * also holds the two digests equal).
 */
export function memoisedCspDigest() {
  let replaced = false;
  return {
    name: 'signalbox-memoised-csp-digest',
    enforce: 'pre' as const,
    // `astro dev` runs Astro's pipeline outside Vite: nothing to replace there
    apply: 'build' as const,
    resolveId(source: string, importer: string | undefined) {
      if (source !== ASTRO_DIGEST_IMPORT || !importer?.replaceAll('\\', '/').endsWith(ASTRO_PAGE_STATE)) return null;
      replaced = true;
      return MEMOISED_DIGEST;
    },
    buildEnd(this: { environment?: { name: string } }, error?: Error) {
      if (error || this.environment?.name !== 'ssr' || replaced) return;
      throw new Error(`Astro's ${ASTRO_PAGE_STATE} no longer imports generateCspDigest from ${ASTRO_DIGEST_IMPORT}: update src/console/csp-digest-plugin.ts`);
    },
  };
}
