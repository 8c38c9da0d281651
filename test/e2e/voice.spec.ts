import path from 'node:path';
import type { Page } from '@playwright/test';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai';
import { startFakeSpeech } from '../fixtures/fake-speech';
import { tinyWhisper } from '../fixtures/tiny-whisper';
import type { TestUser } from '../helpers/builders';
import type { TestServer } from '../helpers/server';
import { expect, signIn, snap, test } from './fixtures';

/** Chromium's fake microphone plays this recording (espeak-ng: "Hello Parley, please summarize the meeting notes."), looped. */
const SPEECH = path.resolve(import.meta.dirname, '../fixtures/audio/hello.wav');

test.use({
  launchOptions: {
    executablePath: process.env.PARLEY_CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-audio-capture=${SPEECH}`],
  },
  permissions: ['microphone'],
});

let openai: FakeOpenAI;
test.beforeEach(async () => {
  openai = await startFakeOpenAI({ models: ['fake-gpt'] });
});
test.afterEach(async () => {
  await openai.close();
});

async function ready(page: Page, server: TestServer, admin: TestUser, language?: string) {
  await server.as(admin.token).post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: [''], COMPAT_API_CONFIGS: {} });
  if (language) await server.as(admin.token).post('/api/v1/users/user/settings/update', { language });
  await signIn(page, admin.email, admin.password);
  await expect(page.getByTestId('mic-button')).toBeVisible();
}

test('the microphone: speaking lands the provider’s transcription in the message box', async ({ page, server, admin }) => {
  const speech = await startFakeSpeech({ key: 'sk-speech', text: 'Please summarize the meeting notes.' });
  try {
    await server.as(admin.token).post('/api/v1/audio/config/update', { stt: { ENGINE: 'openai', OPENAI_API_BASE_URL: speech.url, OPENAI_API_KEY: 'sk-speech', MODEL: 'whisper-1' } });
    await ready(page, server, admin);
    const input = page.getByLabel('Send a message');
    await input.fill('Note: ');
    const mic = page.getByRole('button', { name: 'Speak instead of typing' });
    await mic.click();
    const stop = page.getByRole('button', { name: 'Stop and transcribe' });
    await expect(stop).toBeVisible();
    const meter = page.getByRole('meter', { name: 'Microphone level' });
    await expect(meter).toBeVisible();
    // The fake microphone speaks: the meter moves.
    await expect.poll(async () => Number(await meter.getAttribute('aria-valuenow')), { timeout: 5_000 }).toBeGreaterThan(0);
    await snap(page, 'voice-mic-listening');
    await page.waitForTimeout(1500);
    await stop.click();
    await expect(input).toHaveValue('Note: Please summarize the meeting notes.');
    await expect(input).toBeFocused();
    const sent = speech.requests.find((r) => r.path === '/audio/transcriptions');
    expect(sent?.authorization).toBe('Bearer sk-speech');
    expect(sent?.fields.model).toBe('whisper-1');
    // 16 kHz mono 16-bit WAV, about as long as the person spoke (≥ 1 s).
    expect(sent?.file?.bytes.subarray(0, 4).toString()).toBe('RIFF');
    expect(sent?.file?.bytes.readUInt32LE(24)).toBe(16_000);
    expect(sent?.file?.bytes.length ?? 0).toBeGreaterThan(32_000);
    await snap(page, 'voice-mic-transcribed');

    // The keyboard shortcut starts and stops too.
    await input.fill('');
    await page.keyboard.press('Control+Shift+M');
    await expect(stop).toBeVisible();
    await page.waitForTimeout(800);
    await page.keyboard.press('Control+Shift+M');
    await expect(input).toHaveValue('Please summarize the meeting notes.');
  } finally {
    await speech.close();
  }
});

test('the microphone through whisper.cpp in the service: speaking lands the local transcription in the message box, with no provider', async ({ page, server, admin }) => {
  // A generated whisper model (random weights: what it "hears" is made of its made-up syllables).
  const form = new FormData();
  form.append('file', new Blob([tinyWhisper()]), 'ggml-tiny-test.bin');
  const imported = await server.as(admin.token).raw('POST', '/builtin/models/import', form);
  expect(imported.status, imported.text).toBe(200);
  await server.as(admin.token).post('/api/v1/audio/config/update', { stt: { ENGINE: 'local', MODEL: '' } });
  expect((await server.as(admin.token).get('/api/v1/audio/engines')).body.stt).toMatchObject({ engine: 'local', ready: true });
  await ready(page, server, admin);
  const input = page.getByLabel('Send a message');
  const transcribed = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/v1/audio/transcriptions');
  await page.getByRole('button', { name: 'Speak instead of typing' }).click();
  const stop = page.getByRole('button', { name: 'Stop and transcribe' });
  await expect(stop).toBeVisible();
  await page.waitForTimeout(1500);
  await stop.click();
  const answer = await transcribed;
  expect(answer.status()).toBe(200);
  const text = ((await answer.json()) as { text: string }).text.trim();
  expect(text.length).toBeGreaterThan(0);
  await expect(input).toHaveValue(text);
  await snap(page, 'voice-mic-local-transcribed');
});

test('the microphone says why it cannot work when no engine is set up (English and German)', async ({ page, server, admin }) => {
  await server.as(admin.token).post('/api/v1/audio/config/update', { stt: { ENGINE: 'local' } });
  await ready(page, server, admin);
  await page.getByRole('button', { name: 'Speak instead of typing' }).click();
  await expect(page.getByTestId('mic-problem')).toHaveText(/No speech-to-text model is installed/);
  await snap(page, 'voice-mic-no-model');
  await server.as(admin.token).post('/api/v1/users/user/settings/update', { language: 'de' });
  await page.reload();
  await page.getByRole('button', { name: 'Sprechen statt tippen' }).click();
  await expect(page.getByTestId('mic-problem')).toHaveText(/Es ist kein Spracherkennungsmodell installiert/);
  await snap(page, 'voice-mic-no-model-de');
});

test('Admin → Audio configures both engines and keeps the provider key masked', async ({ page, server, admin }) => {
  await ready(page, server, admin);
  await page.goto('/admin/audio');
  await expect(page.getByRole('heading', { name: 'Speech-to-text' })).toBeVisible();
  await page.getByTestId('stt-engine').selectOption('openai');
  await page.getByLabel('Provider URL').first().fill('http://127.0.0.1:9/v1');
  await page.getByLabel('API key').first().fill('sk-secret-key');
  await page.getByTestId('tts-engine').selectOption('local');
  await snap(page, 'voice-admin-audio');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect.poll(async () => (await server.as(admin.token).get('/api/v1/audio/config')).body?.stt?.ENGINE).toBe('openai');
  const config = (await server.as(admin.token).get('/api/v1/audio/config')).body;
  expect(config.tts.ENGINE).toBe('local');
  expect(config.stt.OPENAI_API_KEY).not.toContain('secret-key');
  await page.reload();
  await expect(page.getByTestId('stt-engine')).toHaveValue('openai');

  await server.as(admin.token).post('/api/v1/users/user/settings/update', { language: 'de' });
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Spracherkennung' })).toBeVisible();
  await snap(page, 'voice-admin-audio-de');
});

test('send at once after dictation, and the browser’s own recognition as an opt-in (account settings, English and German)', async ({ page, server, admin }) => {
  const speech = await startFakeSpeech({ text: 'What is on the agenda today?' });
  // The browser's recognition, scripted: it hears one sentence, whatever the microphone says.
  await page.addInitScript(() => {
    class FakeRecognition {
      lang = '';
      continuous = false;
      interimResults = false;
      onresult: ((e: unknown) => void) | null = null;
      onerror: ((e: unknown) => void) | null = null;
      onend: (() => void) | null = null;
      start() {
        (globalThis as { recognitionLang?: string }).recognitionLang = this.lang;
      }
      stop() {
        const result = Object.assign([{ transcript: 'Guten Morgen zusammen' }], { isFinal: true });
        setTimeout(() => {
          this.onresult?.({ resultIndex: 0, results: [result] });
          this.onend?.();
        }, 50);
      }
      abort() {
        this.onend?.();
      }
    }
    Object.assign(globalThis, { SpeechRecognition: FakeRecognition, webkitSpeechRecognition: FakeRecognition });
  });
  try {
    await server.as(admin.token).post('/api/v1/audio/config/update', { stt: { ENGINE: 'openai', OPENAI_API_BASE_URL: speech.url, OPENAI_API_KEY: '' } });
    await ready(page, server, admin);
    await page.goto('/account');
    await page.getByRole('switch', { name: /Send the message as soon as the dictation is transcribed/ }).check();
    await snap(page, 'voice-account-settings');
    await page.goto('/');
    await page.getByRole('button', { name: 'Speak instead of typing' }).click();
    await page.waitForTimeout(800);
    await page.getByRole('button', { name: 'Stop and transcribe' }).click();
    // Sent at once: the question is in the conversation and the box is empty again.
    await expect(page.getByTestId('message-user').last()).toContainText('What is on the agenda today?');
    await expect(page.getByLabel('Send a message')).toHaveValue('');

    await server.as(admin.token).post('/api/v1/users/user/settings/update', { language: 'de' });
    await page.goto('/account');
    const browserSwitch = page.getByRole('switch', { name: /Spracherkennung dieses Browsers verwenden/ });
    await browserSwitch.check();
    await page.getByRole('switch', { name: /Nachricht senden, sobald/ }).uncheck();
    await snap(page, 'voice-account-settings-de');
    const before = speech.requests.length;
    await page.goto('/');
    await page.getByRole('button', { name: 'Sprechen statt tippen' }).click();
    await page.getByRole('button', { name: 'Beenden und transkribieren' }).click();
    await expect(page.getByRole('textbox', { name: 'Nachricht senden' })).toHaveValue('Guten Morgen zusammen');
    expect(await page.evaluate(() => (globalThis as { recognitionLang?: string }).recognitionLang)).toBe('de');
    // The browser did the work: the service's provider heard nothing more.
    expect(speech.requests.length).toBe(before);
  } finally {
    await speech.close();
  }
});

test('read-aloud plays an answer with the offline espeak-ng voice chosen in Admin → Audio', async ({ page, server, admin }) => {
  // Every playback the page starts, and whether it played to the end.
  await page.addInitScript(() => {
    interface Media {
      play(): Promise<void>;
      addEventListener(type: string, listener: () => void): void;
    }
    const played: { ok: boolean; ended: boolean; error?: string }[] = [];
    Object.assign(globalThis, { played });
    const proto = (globalThis as unknown as { HTMLMediaElement: { prototype: Media } }).HTMLMediaElement.prototype;
    const play = proto.play;
    proto.play = function (this: Media) {
      const entry: (typeof played)[number] = { ok: false, ended: false };
      played.push(entry);
      this.addEventListener('ended', () => (entry.ended = true));
      return play.call(this).then(
        () => void (entry.ok = true),
        (e: unknown) => {
          entry.error = String(e);
          throw e;
        },
      );
    };
  });
  openai.reply({ text: 'Good morning. The agenda has two items.' });
  await ready(page, server, admin);
  await page.goto('/admin/audio');
  await page.getByTestId('tts-engine').selectOption('local');
  await page.getByLabel('Voice').fill('en-us');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect.poll(async () => (await server.as(admin.token).get('/api/v1/audio/config')).body?.tts?.ENGINE).toBe('local');
  expect((await server.as(admin.token).get('/api/v1/audio/config')).body.tts.VOICE).toBe('en-us');

  await page.goto('/');
  const input = page.getByLabel('Send a message');
  await input.fill('What is on the agenda?');
  await input.press('Enter');
  const answer = page.getByTestId('message-assistant').last();
  await expect(answer).toContainText('The agenda has two items.');
  await answer.hover();
  const speech = page.waitForResponse((r) => r.url().endsWith('/api/v1/audio/speech') && r.request().method() === 'POST');
  const button = answer.getByRole('button', { name: 'Read aloud' });
  await button.click();
  const first = await speech;
  expect(first.status()).toBe(200);
  expect(first.headers()['content-type']).toMatch(/^audio\//);
  // Both sentences play to the end, then the button is back to "Read aloud".
  await expect.poll(async () => page.evaluate(() => (globalThis as unknown as { played: { ok: boolean; ended: boolean }[] }).played), { timeout: 20_000 }).toEqual([
    { ok: true, ended: true },
    { ok: true, ended: true },
  ]);
  await expect(button).toHaveAttribute('aria-pressed', 'false');
  await snap(page, 'voice-read-aloud');
});
