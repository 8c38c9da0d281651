import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelEvent, MessageStreamDelta } from '../../server/contracts/channels';
import { DEFAULT_TASK_CONFIG } from '../../server/contracts/tasks';
import { memorySecretStore } from '../../server/secrets';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { createTestDatabase, dropTestDatabase, startPostgresCluster, testClusterUrl, type PostgresCluster } from '../helpers/postgres';
import { startTestServer, type TestServer } from '../helpers/server';
import { C, connectLive, createChannel, eventually, pause, postMessage, setChannels, type LiveClient } from './channels-helpers';

const ofType = (type: string, messageId?: string) => (e: ChannelEvent) => e.data.type === type && (messageId === undefined || e.message_id === messageId);

/** Two instances on one PostgreSQL database, people connected to either: channels behave as one service. */
describe('channels across two instances on PostgreSQL', () => {
  let cluster: PostgresCluster | undefined;
  let baseUrl: string;
  const dbName = `parley_channels_${process.pid}`;
  let a: TestServer;
  let b: TestServer;
  let admin: TestUser;
  let ann: TestUser;
  let ben: TestUser;
  let channelId: string;
  let openai: FakeOpenAI;
  const clients: LiveClient[] = [];
  const live = async (server: TestServer, user: TestUser) => {
    const client = await connectLive(server, user.token);
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    baseUrl = testClusterUrl() ?? (cluster = await startPostgresCluster()).baseUrl;
    const url = await createTestDatabase(baseUrl, dbName);
    const secrets = memorySecretStore();
    a = await startTestServer({ secrets, envVars: { PARLEY_DATABASE_URL: url } });
    b = await startTestServer({ secrets, envVars: { PARLEY_DATABASE_URL: url } });
    admin = await signupAdmin(a);
    ann = await buildUser(a, admin, 'user', 'Ann');
    ben = await buildUser(a, admin, 'user', 'Ben');
    await setChannels(a, admin, true);
    await eventually(async () => (await b.as(ann.token).get(`${C}/`)).status === 200);
    channelId = await createChannel(a, admin, { name: 'both', access_control: { read: { user_ids: [ann.id, ben.id] } } });
    openai = await startFakeOpenAI({ models: ['gpt-fake'] });
    await a.as(admin.token).post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: [''], COMPAT_API_CONFIGS: {} });
    const off = { ...DEFAULT_TASK_CONFIG, ENABLE_TITLE_GENERATION: false, ENABLE_TAGS_GENERATION: false, ENABLE_FOLLOW_UP_GENERATION: false };
    await a.as(admin.token).post('/api/v1/tasks/config/update', off);
  });
  afterEach(() => {
    for (const c of clients.splice(0)) c.close();
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await openai?.close();
    await dropTestDatabase(baseUrl, dbName).catch(() => undefined);
    cluster?.stop();
  });

  it('a message posted on A reaches a member connected to B at once; edits, reactions and typing cross too', async () => {
    const [onA, onB] = await Promise.all([live(a, ann), live(b, ben)]);
    expect(await onB.joined()).toContain(channelId);
    const posted = await postMessage(a, ann, channelId, { content: 'from A' });
    expect((await onB.next(ofType('message', posted.id))).data.data).toMatchObject({ content: 'from A', user: { name: 'Ann' } });
    await b.as(ben.token).post(`${C}/${channelId}/messages/${posted.id}/reactions/add`, { name: '✅' });
    expect((await onA.next(ofType('message:reaction:add', posted.id))).data.data).toMatchObject({ name: '✅', user_id: ben.id });
    await a.as(ann.token).post(`${C}/${channelId}/messages/${posted.id}/update`, { content: 'from A, edited' });
    expect((await onB.next(ofType('message:update', posted.id))).data.data).toMatchObject({ content: 'from A, edited' });
    onB.socket.emit('channel-events', { channel_id: channelId, data: { type: 'typing', data: { typing: true } } });
    expect((await onA.next(ofType('typing'))).user).toEqual({ id: ben.id, name: 'Ben' });
    // Read on B, listed on A: one read position.
    await b.as(ben.token).post(`${C}/${channelId}/read`, {});
    const listed = (await a.as(ben.token).get(`${C}/`)).body as Array<{ id: string; unread_count: number }>;
    expect(listed.find((c) => c.id === channelId)?.unread_count).toBe(0);
  });

  it('access taken away on A ends the subscription of a socket on B within a second', async () => {
    const id = await createChannel(a, admin, { name: 'narrowing', access_control: { read: { user_ids: [ann.id, ben.id] } } });
    const onB = await live(b, ben);
    await eventually(async () => (await onB.joined()).includes(id));
    const started = Date.now();
    await a.as(admin.token).post(`${C}/${id}/update`, { name: 'narrowing', access_control: { read: { user_ids: [ann.id] } } });
    await onB.next((e) => e.data.type === 'channels', 1_000);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(await onB.joined()).not.toContain(id);
    await postMessage(a, ann, id, { content: 'Ben no longer hears this' });
    await pause(300);
    expect(onB.events.filter((e) => e.channel_id === id && e.data.type === 'message')).toEqual([]);
  });

  it('channels turned off on A unsubscribe sockets on B; a sign-out on A drops that session’s socket on B', async () => {
    const onB = await live(b, ben);
    await setChannels(a, admin, false);
    try {
      await eventually(async () => (await onB.joined()).length === 0);
    } finally {
      await setChannels(a, admin, true);
    }
    await eventually(async () => (await onB.joined()).includes(channelId));
    const session = await a.anon.post('/api/v1/auths/signin', { email: ben.email, password: ben.password });
    const second = await connectLive(b, session.body.token);
    clients.push(second);
    const dropped = new Promise<void>((resolve) => second.socket.once('disconnect', () => resolve()));
    await a.as(session.body.token).get('/api/v1/auths/signout');
    await dropped;
  });

  it('an @model answer asked on B streams live to members on A and on B, and is saved once', async () => {
    openai.reply({ pieces: ['Across ', 'both ', 'instances.'], delayMs: 20 });
    const [onA, onB] = await Promise.all([live(a, ann), live(b, ben)]);
    await postMessage(b, ben, channelId, { content: '@gpt-fake say hello to both' });
    const isAnswer = (e: ChannelEvent) => e.data.type === 'message' && (e.data.data as { meta?: { model_id?: string } }).meta?.model_id === 'gpt-fake';
    const started = (await onA.next(isAnswer, 5_000)).data.data as { id: string };
    for (const c of [onA, onB]) {
      const final = (await c.next(ofType('message:update', started.id), 10_000)).data.data as { content: string; meta: { status: string } };
      expect(final).toMatchObject({ content: 'Across both instances.', meta: { status: 'done' } });
      const frames = c.events.filter(ofType('message:stream', started.id)).map((e) => e.data.data as MessageStreamDelta);
      expect(frames.map((f) => f.delta).join('')).toBe('Across both instances.');
    }
    expect(openai.chats()).toHaveLength(1);
    const saved = (await a.as(ann.token).get(`${C}/${channelId}/messages/${started.id}`)).body;
    expect(saved.content).toBe('Across both instances.');
  });
});
