import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LanStatus } from '../server/contracts/lan';
import { DESKTOP_CATALOGS } from './desktop-catalogs';
import { applicationMenu } from './shell';
import { createShellText } from './shell-text';
import { trayMenu } from './tray';

const locales = path.resolve(import.meta.dirname, '../renderer/src/locales');
const OFF: LanStatus = { enabled: false, listening: false, port: 8765, addresses: [], urls: [], warnings: [], error: null };
const noop = () => undefined;
const actions = { open: noop, setSharing: noop, copyAddress: noop, showQrCode: noop, quit: noop };

describe('the desktop shell’s language', () => {
  it('bundles the desktop catalog of every shipped language', () => {
    const shipped = readdirSync(locales, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
    expect(Object.keys(DESKTOP_CATALOGS).sort()).toEqual(shipped.sort());
  });

  it('starts in the OS language when it ships, else English', () => {
    expect(createShellText(['de-AT', 'en-US']).language()).toBe('de');
    expect(createShellText(['xx-YY', 'de']).language()).toBe('de');
    expect(createShellText(['xx-YY']).language()).toBe('en');
    expect(createShellText().language()).toBe('en');
  });

  it('speaks the chosen language in the tray and the application menu, and switches when told', () => {
    const text = createShellText(['en']);
    expect(trayMenu({ lan: OFF, startAtLogin: undefined }, actions, text).map((i) => i.label).filter(Boolean)).toContain('Quit Parley');
    expect(text.setLanguage('de-CH')).toBe(true);
    expect(text.setLanguage('de')).toBe(false);
    expect(trayMenu({ lan: OFF, startAtLogin: undefined }, actions, text).map((i) => i.label).filter(Boolean)).toEqual(['Parley öffnen', 'Im lokalen Netzwerk teilen', 'LAN-Adresse kopieren', 'QR-Code anzeigen …', 'Parley beenden']);
    expect(applicationMenu('linux', false, text).map((i) => i.label ?? i.role)).toEqual(['Datei', 'editMenu', 'Ansicht', 'windowMenu']);
    expect(text.t('desktop.update.readyMessage', { version: '1.2.3' })).toBe('Parley 1.2.3 ist bereit zur Installation.');
    expect(text.setLanguage('tlh')).toBe(true);
    expect(text.language()).toBe('en');
  });
});
