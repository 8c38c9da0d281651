import { describe, expect, it } from 'vitest';
import { directionOf, LANGUAGES, matchLanguage, namespaceOf } from './languages';
import { pseudoRtlText, pseudoText } from '../lib/i18n/pseudo';

const all = LANGUAGES.map((l) => l.code);

describe('a person’s languages map onto the shipped ones', () => {
  it('matches exactly, by region rule, then by base language', () => {
    expect(matchLanguage(['de-AT'], all)).toBe('de');
    expect(matchLanguage(['pt-PT'], all)).toBe('pt-BR');
    expect(matchLanguage(['zh-HK'], all)).toBe('zh-TW');
    expect(matchLanguage(['zh-Hant-TW'], all)).toBe('zh-TW');
    expect(matchLanguage(['zh'], all)).toBe('zh-CN');
    expect(matchLanguage(['iw'], all)).toBe('he');
    expect(matchLanguage(['fr_CA'], all)).toBe('fr');
  });

  it('takes the first preference it can serve, and nothing when none fits', () => {
    expect(matchLanguage(['tlh', 'sv', 'nl-BE', 'de'], all)).toBe('nl');
    expect(matchLanguage(['zh-TW'], ['en', 'zh-CN'])).toBeUndefined();
    expect(matchLanguage([], all)).toBeUndefined();
  });

  it('knows which languages read right to left, and which file holds a key', () => {
    expect(directionOf('ar')).toBe('rtl');
    expect(directionOf('he')).toBe('rtl');
    expect(directionOf('ar-XB')).toBe('rtl');
    expect(directionOf('de')).toBe('ltr');
    expect(namespaceOf('sidebar.pin')).toBe('chat');
    expect(namespaceOf('prompts.new')).toBe('library');
    expect(namespaceOf('builtin.title')).toBe('admin');
  });
});

describe('the pseudo-locales', () => {
  it('lengthen and accent English but keep placeholders and markup', () => {
    const text = pseudoText('Delete <strong>{{name}}</strong> now?');
    expect(text).toMatch(/^\[Ðéļéţé <strong>\{\{name\}\}<\/strong> ñöŵ\?.*\]$/);
    expect(text.length).toBeGreaterThanOrEqual(Math.round('Delete <strong>{{name}}</strong> now?'.length * 1.4));
  });

  it('force words right to left, leaving what is filled in alone', () => {
    expect(pseudoRtlText('Hi {{name}}, welcome')).toBe('\u202EHi \u202C{{name}}\u202E, welcome\u202C');
  });
});
