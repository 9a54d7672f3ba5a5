import i18next, { type TFunction } from 'i18next';
import { FALLBACK_LANGUAGE } from './languages.ts';

type Messages = Record<string, unknown>;

const files = import.meta.glob<Messages>('../../locales/*/translation.json', { eager: true, import: 'default' });
const MESSAGES: Record<string, Messages> = Object.fromEntries(
  Object.entries(files).map(([path, messages]) => [path.split('/').at(-2)!, messages]),
);

/**
 * A translator for one request: a fresh i18next instance, so concurrent requests in different
 * languages never share state (no global changeLanguage under SSR).
 * @example const t = createTranslator('de'); t('login.signIn')
 */
export function createTranslator(lang: string): TFunction {
  const instance = i18next.createInstance();
  void instance.init({
    lng: lang,
    fallbackLng: FALLBACK_LANGUAGE,
    resources: { [lang]: { translation: MESSAGES[lang] ?? {} }, [FALLBACK_LANGUAGE]: { translation: MESSAGES[FALLBACK_LANGUAGE]! } },
    initAsync: false,
    interpolation: { escapeValue: false },
  });
  return instance.t;
}

/**
 * One section of the active language's messages (English filling gaps), for an island's props,
 * so the browser receives only what that island shows.
 * @example messagesFor('de', 'task')
 */
export function messagesFor(lang: string, section: string): Record<string, string> {
  const pick = (code: string) => (MESSAGES[code]?.[section] ?? {}) as Record<string, string>;
  return { ...pick(FALLBACK_LANGUAGE), ...pick(lang) };
}
