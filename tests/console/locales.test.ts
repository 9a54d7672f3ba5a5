import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../src/console/languages.ts';

const ROOT = new URL('../../locales/', import.meta.url);
const read = (lang: string) => JSON.parse(readFileSync(new URL(`${lang}/translation.json`, ROOT), 'utf8')) as Record<string, unknown>;

function flatten(messages: Record<string, unknown>, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(messages)) {
    if (value && typeof value === 'object') for (const [k, v] of flatten(value as Record<string, unknown>, `${prefix}${key}.`)) out.set(k, v);
    else out.set(prefix + key, String(value));
  }
  return out;
}

const english = flatten(read('en'));
const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

describe('locale files', () => {
  it('has a folder for every interface language and no other', () => {
    expect(readdirSync(ROOT).sort()).toEqual(LANGUAGES.map((l) => l.code).sort());
  });

  for (const { code } of LANGUAGES.filter((l) => l.code !== 'en')) {
    it(`${code} has exactly the English keys, with the same placeholders`, () => {
      const messages = flatten(read(code));
      expect([...messages.keys()].sort()).toEqual([...english.keys()].sort());
      for (const [key, text] of english) {
        expect(messages.get(key)!.trim(), `${code} ${key}`).not.toBe('');
        expect(placeholders(messages.get(key)!), `${code} ${key}`).toEqual(placeholders(text));
      }
    });

    it(`${code} is translated, not copied from English`, () => {
      const messages = flatten(read(code));
      const copied = [...english].filter(([key, text]) => messages.get(key) === text).length;
      // A few words are the same in both languages (Status, Version, Team); most must differ.
      expect(copied / english.size).toBeLessThan(0.1);
    });
  }
});
