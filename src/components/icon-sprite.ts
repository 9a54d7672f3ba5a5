import { ICONS } from './icons.ts';

/**
 * Every console icon as one SVG sprite of `<symbol id="name">`s, served as the static file
 * `/icons.svg` (src/pages/icons.svg.ts, built once). Pages refer to a symbol with `<use>` instead
 * of repeating its path: a history page named 38 icons, 14.5 KB of its 33 KB.
 */
export function iconSprite(): string {
  const symbols = Object.entries(ICONS).map(([name, path]) => `<symbol id="${name}" viewBox="0 0 24 24"><path d="${path}"/></symbol>`);
  return `<svg xmlns="http://www.w3.org/2000/svg">${symbols.join('')}</svg>`;
}

/** FNV-1a over the text, twice with different seeds: a cache key, not a security check (and no node:crypto, so cell-markup.ts also runs in islands). */
function contentVersion(text: string): string {
  const fnv = (seed: number) => {
    let h = seed;
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
    return h.toString(16).padStart(8, '0');
  };
  return (fnv(0x811c9dc5) + fnv(0x050c5d1f)).slice(0, 12);
}

/** The sprite's address; the version changes with its content, so a day's browser cache never shows an old icon. */
export const ICON_SPRITE_URL = `/icons.svg?v=${contentVersion(iconSprite())}`;
