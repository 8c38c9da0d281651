import { afterAll, describe, expect, it } from 'vitest';
import { formatBytes, formatDate, formatDuration, formatLanguageName, formatList, formatNumber, formatPercent, formatRelative } from './format';
import { setLanguage, t } from './i18n';

// Intl's own spaces (no-break, narrow no-break) read as plain spaces here.
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

describe('formats follow the UI language', () => {
  afterAll(() => setLanguage('en'));

  it('in English', async () => {
    await setLanguage('en');
    expect(formatNumber(1234.5)).toBe('1,234.5');
    expect(plain(formatBytes(1536))).toBe('1.5 kB');
    expect(plain(formatBytes(5 * 1024 ** 3))).toBe('5 GB');
    expect(formatBytes(undefined)).toBe('—');
    expect(formatPercent(0.42)).toBe('42%');
    expect(formatRelative(1_000_000 - 180, 1_000_000_000)).toBe('3 minutes ago');
    expect(formatRelative(1_000_000 - 86_400, 1_000_000_000)).toBe('yesterday');
    expect(plain(formatDuration(65_000))).toBe('1 min 5 sec');
    expect(formatList(['a', 'b', 'c'])).toBe('a, b, and c');
    expect(formatLanguageName('de')).toBe('German');
    expect(formatDate(Date.UTC(2026, 2, 12, 12) / 1000)).toBe('Mar 12, 2026');
    expect(t('library.importedMessages', { count: 1 })).toBe('1 message');
  });

  it('in German, with its plural forms', async () => {
    await setLanguage('de');
    expect(formatNumber(1234.5)).toBe('1.234,5');
    expect(plain(formatBytes(1536))).toBe('1,5 kB');
    expect(plain(formatPercent(0.42))).toBe('42 %');
    expect(formatRelative(1_000_000 - 180, 1_000_000_000)).toBe('vor 3 Minuten');
    expect(formatRelative(1_000_000 - 86_400, 1_000_000_000)).toBe('gestern');
    expect(formatList(['a', 'b', 'c'])).toBe('a, b und c');
    expect(formatLanguageName('de')).toBe('Deutsch');
    expect(formatDate(Date.UTC(2026, 2, 12, 12) / 1000)).toBe('12.03.2026');
    expect(t('chat.placeholder')).toBe('Nachricht senden');
    expect(t('library.importedMessages', { count: 1 })).toBe('1 Nachricht');
    expect(t('library.importedMessages', { count: 3 })).toBe('3 Nachrichten');
    expect(t('chat.usagePrompt', { count: 12_345 })).toBe('Prompt: 12.345 Token');
  });
});
