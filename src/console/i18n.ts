import i18next, { type TFunction } from 'i18next';
import { FALLBACK_LANGUAGE } from './languages.ts';

type Messages = Record<string, unknown>;

const files = import.meta.glob<Messages>('../../locales/*/translation.json', { eager: true, import: 'default' });
const MESSAGES: Record<string, Messages> = Object.fromEntries(
  Object.entries(files).map(([path, messages]) => [path.split('/').at(-2)!, messages]),
);

const TRANSLATORS = new Map<string, TFunction>();

/**
 * The translator of one language: its own i18next instance, never switched to another language,
 * so concurrent requests in different languages never share state (no global changeLanguage
 * under SSR). Built once per language.
 * @example const t = createTranslator('de'); t('login.signIn')
 */
export function createTranslator(lang: string): TFunction {
  let t = TRANSLATORS.get(lang);
  if (!t) {
    t = buildTranslator(lang);
    TRANSLATORS.set(lang, t);
  }
  return t;
}

function buildTranslator(lang: string): TFunction {
  const instance = i18next.createInstance();
  void instance.init({
    lng: lang,
    fallbackLng: FALLBACK_LANGUAGE,
    resources: { [lang]: { translation: MESSAGES[lang] ?? {} }, [FALLBACK_LANGUAGE]: { translation: MESSAGES[FALLBACK_LANGUAGE]! } },
    initAsync: false,
    interpolation: { escapeValue: false },
  });
  // Plain lookups (no interpolation) repeat on every page: answer them from a memo, since
  // i18next's resolution was a visible share of a page's render time.
  const plain = new Map<string, string>();
  const t = (key: string | string[], options?: unknown) => {
    if (options !== undefined || typeof key !== 'string') return (instance.t as unknown as (k: unknown, o?: unknown) => string)(key, options);
    let text = plain.get(key);
    if (text === undefined) {
      text = instance.t(key);
      plain.set(key, text);
    }
    return text;
  };
  return t as unknown as TFunction;
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
