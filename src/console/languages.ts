/** Interface languages of seed 000 §1, with a flag for the language menu. Fallback: en. */
export const LANGUAGES = [
  { code: 'en', name: 'English', flag: '🇬🇧' },
  { code: 'es', name: 'Español', flag: '🇪🇸' },
  { code: 'ru', name: 'Русский', flag: '🇷🇺' },
  { code: 'de', name: 'Deutsch', flag: '🇩🇪' },
  { code: 'nl', name: 'Nederlands', flag: '🇳🇱' },
  { code: 'zh_cn', name: '简体中文', flag: '🇨🇳' },
  { code: 'zh_tw', name: '繁體中文', flag: '🇹🇼' },
  { code: 'fr', name: 'Français', flag: '🇫🇷' },
  { code: 'it', name: 'Italiano', flag: '🇮🇹' },
  { code: 'pl', name: 'Polski', flag: '🇵🇱' },
  { code: 'pt', name: 'Português', flag: '🇵🇹' },
  { code: 'pt_br', name: 'Português (Brasil)', flag: '🇧🇷' },
  { code: 'ja', name: '日本語', flag: '🇯🇵' },
  { code: 'ko', name: '한국어', flag: '🇰🇷' },
  { code: 'uk', name: 'Українська', flag: '🇺🇦' },
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
