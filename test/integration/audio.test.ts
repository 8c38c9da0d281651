import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';
import { startFakeSpeech } from '../fixtures/fake-speech';
import { tinyWhisper } from '../fixtures/tiny-whisper';

/**
 * Speech end to end: the admin settings (keys in the secret store, masked), transcription through
 * an OpenAI-compatible provider on loopback and through whisper.cpp with a tiny generated model
 * from the model library, the offline espeak-ng voice and a provider's voice, OpenAI's /v1/audio
 * paths with the `openai` SDK, limits, keeping, access and bad input.
 */
const fixtures = path.join(import.meta.dirname, '../fixtures/audio');
const wav = readFileSync(path.join(fixtures, 'hello.wav'));
let server: TestServer;
let admin: TestUser;
let alice: TestUser;
let fake: Awaited<ReturnType<typeof startFakeSpeech>>;
let dataDir: string;

function form(bytes: Buffer, name = 'hello.wav', fields: Record<string, string> = {}) {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.append(k, v);
  body.append('file', new Blob([bytes]), name);
  return body;
}
const transcribe = (user: TestUser | undefined, bytes: Buffer, name?: string) => (user ? server.as(user.token) : server.anon).raw('POST', '/api/v1/audio/transcriptions', form(bytes, name));
const configure = (patch: Record<string, unknown>) => server.as(admin.token).post('/api/v1/audio/config/update', patch);
const speak = (user: TestUser, body: unknown) => fetch(`${server.url}/api/v1/audio/speech`, { method: 'POST', headers: { Authorization: `Bearer ${user.token}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'parley-audio-'));
  fake = await startFakeSpeech({ key: 'sk-speech', text: 'hello from the provider' });
  server = await startTestServer({ dataDir });
  admin = await signupAdmin(server);
  alice = await buildUser(server, admin, 'user', 'Alice');
}, 60_000);

afterAll(async () => {
  await server?.close();
  await fake?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('audio settings', () => {
  it('answers Open WebUI’s shape to admins only, with the browser as the default engines', async () => {
    const res = await server.as(admin.token).get('/api/v1/audio/config');
    expect(res.status).toBe(200);
    expect(res.body.tts).toMatchObject({ ENGINE: '', MODEL: 'tts-1', VOICE: '', OPENAI_API_KEY: '', SPLIT_ON: 'punctuation' });
    expect(res.body.stt).toMatchObject({ ENGINE: '', OPENAI_API_KEY: '', KEEP_AUDIO: false, MAX_FILE_SIZE_MB: 25 });
    expect((await server.as(alice.token).get('/api/v1/audio/config')).status).toBe(403);
    expect((await server.anon.get('/api/v1/audio/config')).status).toBe(401);
    expect((await server.as(alice.token).post('/api/v1/audio/config/update', { stt: { ENGINE: 'openai' } })).status).toBe(403);
  });

  it('keeps provider keys in the secret store and shows them masked; the mask sent back keeps the key', async () => {
    const res = await configure({ stt: { ENGINE: 'openai', OPENAI_API_BASE_URL: `${fake.url}/`, OPENAI_API_KEY: 'sk-speech', MODEL: 'whisper-1' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.stt.OPENAI_API_KEY).toBe('••••••••');
    expect(res.body.stt.OPENAI_API_BASE_URL).toBe(fake.url);
    const again = await configure({ stt: { OPENAI_API_KEY: '••••••••', MODEL: 'whisper-1' } });
    expect(again.body.stt.OPENAI_API_KEY).toBe('••••••••');
    const db = readdirSync(dataDir).filter((f) => f.endsWith('.db') || f.endsWith('.sqlite'));
    for (const file of db) expect(readFileSync(path.join(dataDir, file)).includes('sk-speech')).toBe(false);
  });

  it('refuses settings that are not settings, naming the field', async () => {
    const bad = await configure({ stt: { ENGINE: 'cloud' } });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toMatch(/ENGINE/);
    expect((await configure({ tts: { OPENAI_API_BASE_URL: 'file:///etc/passwd' } })).status).toBe(400);
    expect((await configure({ stt: { MAX_FILE_SIZE_MB: 0 } })).status).toBe(400);
  });
});

describe('speech-to-text through a provider', () => {
  it('sends the recording untouched with the key and model, and answers {text}', async () => {
    const res = await transcribe(alice, wav);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ text: 'hello from the provider' });
    const sent = fake.last()!;
    expect(sent.authorization).toBe('Bearer sk-speech');
    expect(sent.fields.model).toBe('whisper-1');
    expect(sent.file?.bytes.equals(wav)).toBe(true);
  });

  it('says what the provider answered when it refuses, and when it cannot be reached', async () => {
    fake.failWith(400, 'Audio file is too short');
    const refused = await transcribe(alice, wav);
    fake.succeed();
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toMatch(/Audio file is too short/);
    await configure({ stt: { OPENAI_API_KEY: 'sk-wrong' } });
    const unauthorized = await transcribe(alice, wav);
    expect(unauthorized.status).toBe(502);
    expect(unauthorized.body.detail).toMatch(/401.*Incorrect API key/);
    await configure({ stt: { OPENAI_API_KEY: 'sk-speech', OPENAI_API_BASE_URL: 'http://127.0.0.1:9/v1' } });
    const unreachable = await transcribe(alice, wav);
    expect(unreachable.status).toBe(502);
    expect(unreachable.body.detail).toMatch(/could not be reached/);
    await configure({ stt: { OPENAI_API_BASE_URL: fake.url } });
  });

  it('refuses uploads over the size limit, without a file, or not multipart', async () => {
    await configure({ stt: { MAX_FILE_SIZE_MB: 1 } });
    const big = await transcribe(alice, Buffer.concat([wav, Buffer.alloc(1024 * 1024)]));
    expect(big.status).toBe(413);
    await configure({ stt: { MAX_FILE_SIZE_MB: 25 } });
    const none = await server.as(alice.token).raw('POST', '/api/v1/audio/transcriptions', new FormData());
    expect(none.status).toBe(400);
    const json = await server.as(alice.token).post('/api/v1/audio/transcriptions', { file: 'x' });
    expect(json.status).toBe(400);
    expect(json.body.detail).toMatch(/multipart/);
    expect((await transcribe(undefined, wav)).status).toBe(401);
  });

  it('is refused to people whose groups do not grant speech-to-text', async () => {
    const defaults = (await server.as(admin.token).get('/api/v1/users/default/permissions')).body;
    await server.as(admin.token).post('/api/v1/users/default/permissions', { ...defaults, chat: { ...defaults.chat, stt: false, tts: false } });
    const refused = await transcribe(alice, wav);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/chat\.stt/);
    expect((await speak(alice, { input: 'Hello' })).status).toBe(403);
    expect((await transcribe(admin, wav)).status).toBe(200);
    await server.as(admin.token).post('/api/v1/users/default/permissions', defaults);
  });
});

describe('speech-to-text with whisper.cpp in the service', () => {
  let modelId: string;

  it('refuses a broken whisper file in the model library, with the reason', async () => {
    const bytes = tinyWhisper();
    const body = new FormData();
    body.append('file', new Blob([bytes.subarray(0, bytes.length - 4096)]), 'ggml-broken.bin');
    const res = await server.as(admin.token).raw('POST', '/builtin/models/import', body);
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/not a usable whisper model.*(ends early|missing)/);
  });

  it('imports a whisper model as a transcription model, not offered for chat', async () => {
    const body = new FormData();
    body.append('file', new Blob([tinyWhisper()]), 'ggml-tiny-test.bin');
    const res = await server.as(admin.token).raw('POST', '/builtin/models/import', body);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ kind: 'transcription', architecture: 'whisper', quantization: 'F16', status: 'ready', file_name: 'ggml-tiny-test.bin' });
    modelId = res.body.id;
    const models = await server.as(admin.token).get('/api/models');
    expect(JSON.stringify(models.body)).not.toContain(modelId);
    const recommended = (await server.as(admin.token).get('/builtin/recommended')).body as Array<{ kind: string; sha256?: string; url: string }>;
    expect(recommended.filter((m) => m.kind === 'transcription').map((m) => m.url.split('/').at(-1))).toEqual(['ggml-tiny.bin', 'ggml-base.bin', 'ggml-small.bin']);
    for (const m of recommended.filter((r) => r.kind === 'transcription')) expect(m.sha256).toMatch(/^[0-9a-f]{64}$/);
  }, 60_000);

  it('transcribes with the model: text, duration and language from the whole clip', async () => {
    let engines = await server.as(alice.token).get('/api/v1/audio/engines');
    await configure({ stt: { ENGINE: 'local', MODEL: '' } });
    engines = await server.as(alice.token).get('/api/v1/audio/engines');
    expect(engines.body.stt).toMatchObject({ engine: 'local', ready: true });
    for (const name of ['hello.wav', 'hello.opus', 'hello.mp3']) {
      const res = await transcribe(alice, readFileSync(path.join(fixtures, name)), name);
      expect(res.status, `${name}: ${res.text}`).toBe(200);
      expect(typeof res.body.text).toBe('string');
      expect(res.body.duration).toBeGreaterThan(3.2);
    }
  }, 120_000);

  it('refuses what it cannot decode or what is too long, with a 400 naming it', async () => {
    const m4a = Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from('ftypM4A '), Buffer.alloc(200)]);
    const refused = await transcribe(alice, m4a, 'memo.m4a');
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toMatch(/M4A/);
    const text = await transcribe(alice, Buffer.from('just some text, certainly not speech'), 'notes.wav');
    expect(text.status).toBe(400);
    await configure({ stt: { MAX_DURATION_SECONDS: 5 } });
    const long = await transcribe(alice, Buffer.concat([wav.subarray(0, 44), wav.subarray(44), wav.subarray(44)]).fill(0, 40, 44), 'long.wav');
    await configure({ stt: { MAX_DURATION_SECONDS: 600 } });
    expect(long.status).toBe(400);
    expect(long.body.detail).toMatch(/at most 5 s/);
  }, 60_000);

  it('keeps no recording unless an admin turns keeping on', async () => {
    expect(existsSync(path.join(dataDir, 'audio'))).toBe(false);
    await configure({ stt: { KEEP_AUDIO: true } });
    expect((await transcribe(alice, wav)).status).toBe(200);
    await configure({ stt: { KEEP_AUDIO: false } });
    const kept = readdirSync(path.join(dataDir, 'audio', alice.id));
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatch(/\.wav$/);
  }, 60_000);

  it('answers 503 with the reason when the model is gone', async () => {
    expect((await server.as(admin.token).raw('DELETE', `/builtin/models/${modelId}`)).status).toBe(200);
    const res = await transcribe(alice, wav);
    expect(res.status).toBe(503);
    expect(res.body.detail).toMatch(/No transcription model/);
    expect((await server.as(alice.token).get('/api/v1/audio/engines')).body.stt).toMatchObject({ ready: false, reason: 'no-model' });
  });
});

describe('read-aloud', () => {
  it('speaks offline with espeak-ng as WAV, lists its voices, and refuses formats it cannot make', async () => {
    await configure({ tts: { ENGINE: 'local', VOICE: 'en-us' } });
    const res = await speak(alice, { input: 'Hello there. This is Parley reading aloud.' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/wav');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(0, 4).toString()).toBe('RIFF');
    expect(bytes.readUInt32LE(40)).toBe(bytes.length - 44);
    expect(bytes.length).toBeGreaterThan(20_000);
    const voices = await server.as(alice.token).get('/api/v1/audio/voices');
    expect(voices.body.voices.map((v: { id: string }) => v.id)).toContain('en-us');
    expect((await speak(alice, { input: 'Hi', response_format: 'mp3' })).status).toBe(400);
    expect((await speak(alice, { input: '' })).status).toBe(400);
    expect((await speak(alice, { input: 'x'.repeat(4097) })).status).toBe(400);
    // Text is spoken, never run: a leading dash or markup stays text.
    expect((await speak(alice, { input: '--help <speak>-v xx</speak>' })).status).toBe(200);
  });

  it('streams a provider’s voice through', async () => {
    await configure({ tts: { ENGINE: 'openai', OPENAI_API_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-speech', VOICE: 'nova', MODEL: 'tts-1' } });
    const res = await speak(alice, { input: 'Hello there.' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/mpeg');
    expect(Buffer.from(await res.arrayBuffer()).toString()).toBe('ID3fake-mp3-bytes-for-the-test');
    expect(fake.last()!.json).toMatchObject({ model: 'tts-1', voice: 'nova', input: 'Hello there.' });
    expect((await server.as(alice.token).get('/api/v1/audio/voices')).body.voices.length).toBeGreaterThan(5);
  });
});

describe('/v1/audio with the openai SDK', () => {
  let client: OpenAI;
  beforeAll(async () => {
    const key = await server.as(alice.token).post('/api/v1/auths/api_key');
    client = new OpenAI({ apiKey: key.body.api_key, baseURL: `${server.url}/v1`, maxRetries: 0 });
  });

  it('transcribes and speaks in OpenAI’s shapes', async () => {
    await configure({ stt: { ENGINE: 'openai', OPENAI_API_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-speech' }, tts: { ENGINE: 'local', VOICE: 'en' } });
    const transcript = await client.audio.transcriptions.create({ file: await toFile(wav, 'hello.wav'), model: 'whisper-1' });
    expect(transcript.text).toBe('hello from the provider');
    const plain = await client.audio.transcriptions.create({ file: await toFile(wav, 'hello.wav'), model: 'whisper-1', response_format: 'text' });
    expect(String(plain)).toBe('hello from the provider');
    const speech = await client.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'Hello from the gateway.', response_format: 'wav' });
    const bytes = Buffer.from(await speech.arrayBuffer());
    expect(bytes.subarray(0, 4).toString()).toBe('RIFF');
  });

  it('answers errors in OpenAI’s shape', async () => {
    const anonymous = new OpenAI({ apiKey: 'sk-not-a-key', baseURL: `${server.url}/v1`, maxRetries: 0 });
    await expect(anonymous.audio.transcriptions.create({ file: await toFile(wav, 'hello.wav'), model: 'whisper-1' })).rejects.toMatchObject({ status: 401 });
    await expect(client.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'Hi', response_format: 'mp3' })).rejects.toMatchObject({ status: 400, error: { message: expect.stringMatching(/wav or pcm/) } });
  });
});
