/** Interface languages of seed 000 §1, named in their own language. Fallback: en. */
export const LANGUAGES = [
  { code: 'en', name: 'English' },
  { code: 'es', name: 'Español' },
  { code: 'ru', name: 'Русский' },
  { code: 'de', name: 'Deutsch' },
  { code: 'nl', name: 'Nederlands' },
  { code: 'zh_cn', name: '简体中文' },
  { code: 'zh_tw', name: '繁體中文' },
  { code: 'fr', name: 'Français' },
  { code: 'it', name: 'Italiano' },
  { code: 'pl', name: 'Polski' },
  { code: 'pt', name: 'Português' },
  { code: 'pt_br', name: 'Português (Brasil)' },
  { code: 'ja', name: '日本語' },
  { code: 'ko', name: '한국어' },
  { code: 'uk', name: 'Українська' },
] as const;

export const FALLBACK_LANGUAGE = 'en';

const CODES = new Set<string>(LANGUAGES.map((l) => l.code));

/**
 * The language for a request: the `lang` cookie when it names a known language, otherwise the
 * first Accept-Language entry we have ("System"), otherwise English.
 * @example resolveLanguage(undefined, 'pt-BR,pt;q=0.9') // 'pt_br'
 */
export function resolveLanguage(cookie: string | undefined, acceptLanguage: string | null): string {
  if (cookie && CODES.has(cookie)) return cookie;
  for (const part of (acceptLanguage ?? '').split(',')) {
    const code = matchBrowserLanguage(part.split(';')[0]!.trim());
    if (code) return code;
  }
  return FALLBACK_LANGUAGE;
}

function matchBrowserLanguage(tag: string): string | null {
  const lower = tag.toLowerCase().replace('-', '_');
  if (!lower) return null;
  if (lower.startsWith('zh')) return /tw|hk|mo|hant/.test(lower) ? 'zh_tw' : 'zh_cn';
  if (CODES.has(lower)) return lower;
  const base = lower.split('_')[0]!;
  return CODES.has(base) ? base : null;
}

/** The HTML lang attribute of a language code (zh_cn → zh-CN). */
export function htmlLang(code: string): string {
  const [base, region] = code.split('_');
  return region ? `${base}-${region.toUpperCase()}` : base!;
}

/** The short code the language menu shows (no flag emoji: most Linux desktops lack their font). */
export function languageCode(code: string): string {
  return code.toUpperCase().replace('_', '-');
}
