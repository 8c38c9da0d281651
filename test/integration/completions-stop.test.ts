import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_TASK_CONFIG } from '../../server/contracts/tasks';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A streamed answer read frame by frame, as the UI reads it. */
async function openStream(server: TestServer, user: TestUser, body: Record<string, unknown>) {
  const controller = new AbortController();
  const res = await fetch(`${server.url}/api/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-fake', stream: true, ...body }),
    signal: controller.signal,
  });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  const frames: any[] = [];
  let text = '';
  let ended = false;
  /** Reads until `until` holds for the frames read so far (or the stream ends). */
  const readUntil = async (until: () => boolean) => {
    while (!until() && !ended) {
      const { value, done } = await reader.read();
      if (done) {
        ended = true;
        break;
      }
      buffered += decoder.decode(value, { stream: true });
      let cut: number;
      while ((cut = buffered.indexOf('\n\n')) >= 0) {
        const data = buffered.slice(6, cut);
        buffered = buffered.slice(cut + 2);
        if (data === '[DONE]') continue;
        const frame = JSON.parse(data);
        frames.push(frame);
        text += frame.choices[0]?.delta?.content ?? '';
      }
    }
  };
  return {
    frames,
    get text() {
      return text;
    },
    get ended() {
      return ended;
    },
    readUntil,
    abort: () => controller.abort(),
  };
}

describe('stopping an answer keeps what the screen showed', () => {
  let server: TestServer;
  let admin: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  let openai: FakeOpenAI;
  const long = Array.from({ length: 400 }, (_, i) => `w${i} `);

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signupAdmin(server);
    alice = await buildUser(server, admin, 'user', 'Alice');
    bob = await buildUser(server, admin, 'user', 'Bob');
    openai = await startFakeOpenAI({ models: ['gpt-fake'] });
    const as = server.as(admin.token);
    await as.post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: [''], COMPAT_API_CONFIGS: {} });
    const off = { ...DEFAULT_TASK_CONFIG, ENABLE_TITLE_GENERATION: false, ENABLE_TAGS_GENERATION: false, ENABLE_FOLLOW_UP_GENERATION: false };
    expect((await as.post('/api/v1/tasks/config/update', off)).status).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
    await openai?.close();
  });
  beforeEach(() => openai.reset());

  const newChat = async (user = alice) => (await server.as(user.token).post('/api/v1/chats/new', {})).body.id as string;
  const savedAnswer = async (chat: string, user = alice) => (await server.as(user.token).get(`/api/v1/chats/${chat}`)).body.messages.find((m: any) => m.role === 'assistant');
  const stop = (body: unknown, user = alice) => server.as(user.token).post('/api/chat/stop', body);

  it('names the saved chat, question and answer in a frame before any text', async () => {
    const chat = await newChat();
    openai.reply({ pieces: ['one ', 'two'] });
    const stream = await openStream(server, alice, { messages: [{ role: 'user', content: 'hi' }], chat_id: chat });
    await stream.readUntil(() => false);
    const first = stream.frames[0];
    expect(first).toMatchObject({ chat_id: chat, message_id: expect.any(String), user_message_id: expect.any(String), choices: [] });
    expect(stream.frames.at(-1)).toMatchObject({ chat_id: chat, message_id: first.message_id });
    const saved = (await server.as(alice.token).get(`/api/v1/chats/${chat}`)).body.messages;
    expect(saved.map((m: any) => m.id)).toEqual([first.user_message_id, first.message_id]);
  });

  it('a stop while the answer streams ends it and saves exactly the text the client showed', async () => {
    const chat = await newChat();
    openai.reply({ pieces: long, delayMs: 3 });
    const stream = await openStream(server, alice, { messages: [{ role: 'user', content: 'long please' }], chat_id: chat, stream_id: 'ui-1' });
    await stream.readUntil(() => stream.text.length > 60);
    // The screen shows a little less than arrived (the last frames were not painted yet).
    const shown = stream.text.slice(0, stream.text.length - 5);
    const res = await stop({ chat_id: chat, stream_id: 'ui-1', content: shown });
    expect(res.status).toBe(200);
    expect(res.body.message).toMatchObject({ role: 'assistant', content: shown, status: 'interrupted', error: expect.stringMatching(/^Stopped/) });
    await openai.waitForAbort(2000);
    await stream.readUntil(() => false);
    expect(stream.frames.at(-1)).toMatchObject({ message_id: stream.frames[0].message_id, choices: [{ finish_reason: 'stop' }] });
    expect(await savedAnswer(chat)).toMatchObject({ content: shown, status: 'interrupted' });
  });

  it('a stop arriving after the service saved more than was shown (the client left first) cuts the answer back', async () => {
    const chat = await newChat();
    openai.reply({ pieces: long, delayMs: 2 });
    const stream = await openStream(server, alice, { messages: [{ role: 'user', content: 'long please' }], chat_id: chat, stream_id: 'ui-2' });
    await stream.readUntil(() => stream.text.length > 40);
    const shown = stream.text;
    const messageId = stream.frames[0].message_id;
    stream.abort();
    await openai.waitForAbort(2000);
    // Words kept streaming while the disconnect travelled: the service saved more than was shown.
    let answer: any;
    for (let i = 0; i < 100; i += 1) {
      answer = await savedAnswer(chat);
      if (answer?.status === 'interrupted') break;
      await sleep(20);
    }
    expect(answer.content.startsWith(shown)).toBe(true);
    const res = await stop({ chat_id: chat, message_id: messageId, stream_id: 'ui-2', content: shown });
    expect(res.status).toBe(200);
    expect(res.body.message).toMatchObject({ id: messageId, content: shown, status: 'interrupted' });
    expect((await savedAnswer(chat)).content).toBe(shown);
    // Stopping again with the same text changes nothing.
    expect((await stop({ chat_id: chat, message_id: messageId, content: shown })).body.message.content).toBe(shown);
  });

  it('a stop that overtakes its answer stops the answer as it begins: the question is saved, the answer is what was shown (nothing)', async () => {
    const chat = await newChat();
    openai.reply({ pieces: long, delayMs: 2 });
    const early = await stop({ chat_id: chat, stream_id: 'ui-3', content: '' });
    expect(early.status).toBe(200);
    expect(early.body).toEqual({ message: null });
    const stream = await openStream(server, alice, { messages: [{ role: 'user', content: 'never mind' }], chat_id: chat, stream_id: 'ui-3' });
    await stream.readUntil(() => false);
    const saved = (await server.as(alice.token).get(`/api/v1/chats/${chat}`)).body.messages;
    expect(saved.map((m: any) => [m.role, m.content, m.status])).toEqual([
      ['user', 'never mind', 'complete'],
      ['assistant', '', 'interrupted'],
    ]);
  });

  it('a stop of an answer that finished before the stop came keeps the shown part, marked stopped', async () => {
    const chat = await newChat();
    openai.reply({ pieces: ['all ', 'of ', 'it'] });
    const stream = await openStream(server, alice, { messages: [{ role: 'user', content: 'short' }], chat_id: chat, stream_id: 'ui-4' });
    await stream.readUntil(() => false);
    const res = await stop({ chat_id: chat, stream_id: 'ui-4', content: 'all of ' });
    expect(res.body.message).toMatchObject({ content: 'all of ', status: 'interrupted' });
    // Shown whole: it stays complete.
    const chat2 = await newChat();
    const again = await openStream(server, alice, { messages: [{ role: 'user', content: 'short' }], chat_id: chat2, stream_id: 'ui-5' });
    await again.readUntil(() => false);
    expect((await stop({ chat_id: chat2, stream_id: 'ui-5', content: 'all of it' })).body.message).toMatchObject({ content: 'all of it', status: 'complete' });
  });

  it('a stop of an answer asked for without streaming answers the kept text', async () => {
    const chat = await newChat();
    openai.reply({ pieces: long, delayMs: 5 });
    const answering = server.as(alice.token).post('/api/chat/completions', { model: 'gpt-fake', messages: [{ role: 'user', content: 'q' }], chat_id: chat, stream_id: 'ui-6' });
    await sleep(150);
    const stopped = await stop({ chat_id: chat, stream_id: 'ui-6', content: '' });
    expect(stopped.body.message).toMatchObject({ content: '', status: 'interrupted' });
    const res = await answering;
    expect(res.status).toBe(200);
    expect(res.body.choices[0].message.content).toBe('');
  });

  it('refuses strangers, other people, unnamed answers and text the answer never had', async () => {
    const chat = await newChat();
    openai.reply({ pieces: ['alpha ', 'beta'] });
    const stream = await openStream(server, alice, { messages: [{ role: 'user', content: 'q' }], chat_id: chat, stream_id: 'ui-7' });
    await stream.readUntil(() => false);
    const messageId = stream.frames[0].message_id;

    expect((await server.anon.post('/api/chat/stop', { chat_id: chat, message_id: messageId, content: '' })).status).toBe(401);
    const bobs = await stop({ chat_id: chat, message_id: messageId, content: '' }, bob);
    expect(bobs.status).toBe(403);
    // Bob naming Alice's stream id in his own chat finds nothing of hers.
    const bobChat = await newChat(bob);
    expect((await stop({ chat_id: bobChat, stream_id: 'ui-7', content: '' }, bob)).body).toEqual({ message: null });
    expect((await savedAnswer(chat)).content).toBe('alpha beta');

    expect((await stop({ chat_id: chat, content: '' })).status).toBe(422);
    expect((await stop({ chat_id: chat, message_id: 'nope', content: '' })).status).toBe(404);
    expect((await stop({ chat_id: chat, message_id: stream.frames[0].user_message_id, content: '' })).status).toBe(404);
    const changed = await stop({ chat_id: chat, message_id: messageId, content: 'gamma' });
    expect(changed.status).toBe(409);
    expect(changed.body.detail).toMatch(/not the beginning/);
    expect((await stop({ chat_id: chat, message_id: messageId, content: 5 })).status).toBe(422);
    expect((await savedAnswer(chat)).content).toBe('alpha beta');
  });
});
