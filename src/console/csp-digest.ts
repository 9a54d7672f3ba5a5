import { createHash } from 'node:crypto';

/** Astro's CSP hash algorithms and the prefix each gives a source expression. */
const PREFIXES: Record<string, string> = { 'SHA-256': 'sha256-', 'SHA-384': 'sha384-', 'SHA-512': 'sha512-' };

/** Digests already made, by algorithm and text; the texts are a page's static head elements. */
const digests = new Map<string, string>();
const MAX_DIGESTS = 1000;

/**
 * The CSP source expression for `text` (`sha256-<base64>`), the same as Astro's own
 * generateCspDigest, made once per text: Astro asks for the digest of every stylesheet and
 * script of a page's head on every request (an async WebCrypto job each, for texts that never
 * change — mostly the empty text of a linked file). csp-digest-plugin.ts hands Astro this
 * function instead of its own.
 * @example cspDigest('', 'SHA-256') // 'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='
 */
export function cspDigest(text: string, algorithm: string): string {
  const key = `${algorithm}\n${text}`;
  let digest = digests.get(key);
  if (digest === undefined) {
    const prefix = PREFIXES[algorithm];
    if (!prefix) throw new Error(`unknown CSP hash algorithm ${algorithm}`);
    digest = prefix + createHash(algorithm.replace('-', '').toLowerCase()).update(text).digest('base64');
    if (digests.size >= MAX_DIGESTS) digests.clear();
    digests.set(key, digest);
  }
  return digest;
}

/** Astro's name and async signature for it. */
export async function generateCspDigest(text: string, algorithm: string): Promise<string> {
  return cspDigest(text, algorithm);
}
