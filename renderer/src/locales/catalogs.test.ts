import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANGUAGES, NAMESPACES, namespaceOf, SOURCE_LANGUAGE } from './languages';

/**
 * The catalogs' guard rails: every shipped language has every key of English in every
 * namespace, no extra key, the same placeholders and markup, and exactly the plural forms its
 * language has (per Intl.PluralRules, as i18next picks them).
 */

const here = import.meta.dirname;
const PLURAL = /_(zero|one|two|few|many|other)$/;
const shipped = readdirSync(here, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
const others = shipped.filter((code) => code !== SOURCE_LANGUAGE);

type Catalog = Record<string, string>;

function read(code: string, ns: string): Catalog {
  return JSON.parse(readFileSync(path.join(here, code, `${ns}.json`), 'utf8')) as Catalog;
}

/** Keys grouped by their base: plural keys under their base with their forms, others alone. */
function groups(catalog: Catalog): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const key of Object.keys(catalog)) {
    const form = PLURAL.exec(key)?.[1];
    const base = form ? key.slice(0, -form.length - 1) : key;
    out.set(base, [...(out.get(base) ?? []), form ?? '']);
  }
  return out;
}

/** `{{name}}` and `{{count, number}}` placeholders of a text, by name. */
const placeholders = (text: string) => new Set([...text.matchAll(/\{\{\s*([\w.]+)[^}]*\}\}/g)].map((m) => m[1]!));
/** `<strong>`-like markup of a text (RichText), sorted. */
const tags = (text: string) => [...text.matchAll(/<\/?([a-z][\w-]*)\s*\/?>/g)].map((m) => m[0]).sort();

const english = Object.fromEntries(NAMESPACES.map((ns) => [ns, read(SOURCE_LANGUAGE, ns)]));

describe('the English catalogs', () => {
  it.each(NAMESPACES)('%s.json: flat non-empty texts, each key in the namespace its area names', (ns) => {
    for (const [key, text] of Object.entries(english[ns]!)) {
      expect(typeof text, key).toBe('string');
      expect(text.trim(), key).not.toBe('');
      expect(namespaceOf(key), `${key} belongs in ${namespaceOf(key)}.json`).toBe(ns);
    }
  });

  it.each(NAMESPACES)('%s.json: every plural key has exactly its _one and _other forms', (ns) => {
    for (const [base, forms] of groups(english[ns]!)) {
      if (forms.includes('')) expect(forms, base).toEqual(['']);
      else expect(forms.sort(), base).toEqual(['one', 'other']);
    }
  });

  it('keys are unique across namespaces', () => {
    const seen = new Map<string, string>();
    for (const ns of NAMESPACES) {
      for (const key of Object.keys(english[ns]!)) {
        expect(seen.get(key), `${key} in ${ns}.json and ${seen.get(key)}.json`).toBeUndefined();
        seen.set(key, ns);
      }
    }
  });
});

describe('the language list', () => {
  it('names every catalog folder, each in itself, and ships English', () => {
    expect(shipped).toContain(SOURCE_LANGUAGE);
    for (const code of shipped) expect(LANGUAGES.map((l) => l.code), `locales/${code} is not in LANGUAGES`).toContain(code);
  });
});

describe.each(others)('the %s catalogs', (code) => {
  const rules = new Intl.PluralRules(code);
  const categories = [...rules.resolvedOptions().pluralCategories].sort();

  it.each(NAMESPACES)(`%s.json exists with exactly the English keys (plural keys in ${categories.join('/')} forms)`, (ns) => {
    const file = path.join(here, code, `${ns}.json`);
    expect(existsSync(file), `${code}/${ns}.json is missing`).toBe(true);
    const source = groups(english[ns]!);
    const target = groups(read(code, ns));
    const missing = [...source.keys()].filter((base) => !target.has(base));
    const extra = [...target.keys()].filter((base) => !source.has(base));
    expect(missing, `keys missing in ${code}/${ns}.json`).toEqual([]);
    expect(extra, `keys in ${code}/${ns}.json that English does not have`).toEqual([]);
    for (const [base, forms] of source) {
      const expected = forms.includes('') ? [''] : categories;
      expect(target.get(base)!.sort(), `${code}/${ns}.json ${base}: plural forms`).toEqual(expected);
    }
  });

  it.each(NAMESPACES)('%s.json keeps every placeholder and tag, and leaves no English sentence behind', (ns) => {
    const source = english[ns]!;
    const target = read(code, ns);
    const baseOf = (key: string) => key.replace(PLURAL, '');
    for (const [key, text] of Object.entries(target)) {
      expect(typeof text, key).toBe('string');
      expect(text.trim(), `${code}/${ns}.json ${key} is empty`).not.toBe('');
      const plural = PLURAL.test(key);
      const englishForms = Object.entries(source).filter(([k]) => baseOf(k) === baseOf(key)).map(([, v]) => v);
      const wanted = new Set(englishForms.flatMap((v) => [...placeholders(v)]));
      const got = placeholders(text);
      // A plural form may leave the number out ("one file" → "ein Datei"-style wording), never add or drop another name.
      if (plural) {
        wanted.delete('count');
        got.delete('count');
      }
      expect([...got].sort(), `${code}/${ns}.json ${key}: placeholders`).toEqual([...wanted].sort());
      expect(tags(text), `${code}/${ns}.json ${key}: markup`).toEqual(tags(englishForms[0] ?? ''));
      const englishText = source[key] ?? source[`${baseOf(key)}_other`];
      // Prose is three or more words between spaces; addresses and paths (no spaces) may stay as they are.
      const prose = englishText?.replace(/\{\{[^}]*\}\}|<[^>]*>/g, ' ').split(/\s+/).filter((w) => /\p{L}{3,}/u.test(w)) ?? [];
      const words = prose.length;
      if (words >= 3) expect(text, `${code}/${ns}.json ${key} is still English`).not.toBe(englishText);
    }
  });
});
