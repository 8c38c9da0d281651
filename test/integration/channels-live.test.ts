import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelEvent, MentionNotice, MessageStreamDelta } from '../../server/contracts/channels';
import { DEFAULT_TASK_CONFIG } from '../../server/contracts/tasks';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai';
import { buildUser, type TestUser } from '../helpers/builders';
import type { TestServer } from '../helpers/server';
import { C, connectLive, createChannel, eventually, pause, postMessage, setChannels, startChannelCast, type LiveClient } from './channels-helpers';

const ofType = (type: string, messageId?: string) => (e: ChannelEvent) => e.data.type === type && (messageId === undefined || e.message_id === messageId);

describe('channels live over socket.io', () => {
  let server: TestServer;
  let admin: TestUser;
  let member: TestUser;
  let manager: TestUser;
  let outsider: TestUser;
  let channelId: string;
  let openai: FakeOpenAI;
  const clients: LiveClient[] = [];
  const live = async (user: TestUser) => {
    const client = await connectLive(server, user.token);
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    ({ server, admin, member, manager, outsider, channelId } = await startChannelCast('live'));
    openai = await startFakeOpenAI({ models: ['gpt-fake'] });
    const as = server.as(admin.token);
    await as.post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: [''], COMPAT_API_CONFIGS: {} });
    const off = { ...DEFAULT_TASK_CONFIG, ENABLE_TITLE_GENERATION: false, ENABLE_TAGS_GENERATION: false, ENABLE_FOLLOW_UP_GENERATION: false, ENABLE_RETRIEVAL_QUERY_GENERATION: false };
    expect((await as.post('/api/v1/tasks/config/update', off)).status).toBe(200);
  });
  afterEach(() => {
    for (const c of clients.splice(0)) c.close();
    openai.reset();
  });
  afterAll(async () => {
    await server?.close();
    await openai?.close();
  });

  it('subscribes members, managers and admins to the channel, never an outsider or a pending account', async () => {
    const pending = await buildUser(server, admin, 'pending');
    const [m, g, a, o] = await Promise.all([live(member), live(manager), live(admin), live(outsider)]);
    expect(await m.joined()).toContain(channelId);
    expect(await g.joined()).toContain(channelId);
    expect(await a.joined()).toContain(channelId);
    expect(await o.joined()).not.toContain(channelId);
    // A pending account has no live connection at all (refused at connect), so it hears no channel.
    await expect(live(pending)).rejects.toThrow(/pending/i);
  });

  it('a new message, its edit, its reactions and its deletion reach every member at once, and no outsider', async () => {
    const [m, g, a, o] = await Promise.all([live(member), live(manager), live(admin), live(outsider)]);
    const posted = await postMessage(server, member, channelId, { content: 'hello team', temp_id: 'tmp-1' });
    for (const c of [m, g, a]) {
      const event = await c.next(ofType('message', posted.id));
      expect(event).toMatchObject({ channel_id: channelId, message_id: posted.id, temp_id: 'tmp-1', user: { id: member.id, name: 'Mia Member' }, channel: { id: channelId, name: 'live' } });
      expect(event.data.data).toMatchObject({ id: posted.id, content: 'hello team', user: { name: 'Mia Member' } });
    }
    await server.as(member.token).post(`${C}/${channelId}/messages/${posted.id}/update`, { content: 'hello team!' });
    expect((await g.next(ofType('message:update', posted.id))).data.data).toMatchObject({ content: 'hello team!' });
    await server.as(manager.token).post(`${C}/${channelId}/messages/${posted.id}/reactions/add`, { name: '👋' });
    expect((await m.next(ofType('message:reaction:add', posted.id))).data.data).toMatchObject({ id: posted.id, name: '👋', user_id: manager.id, reactions: [{ name: '👋', count: 1 }] });
    await server.as(manager.token).post(`${C}/${channelId}/messages/${posted.id}/reactions/remove`, { name: '👋' });
    expect((await a.next(ofType('message:reaction:remove', posted.id))).data.data).toMatchObject({ reactions: [] });
    const reply = await postMessage(server, manager, channelId, { content: 'in thread', parent_id: posted.id });
    expect((await m.next(ofType('message:reply', posted.id))).data.data).toMatchObject({ id: posted.id, reply_count: 1 });
    expect((await m.next(ofType('message', reply.id))).data.data).toMatchObject({ parent_id: posted.id });
    await server.as(manager.token).delete(`${C}/${channelId}/messages/${posted.id}/delete`);
    expect((await a.next(ofType('message:delete', posted.id))).data.data).toEqual({ id: posted.id, parent_id: null });
    await pause(100);
    expect(o.events.filter((e) => e.channel_id === channelId)).toEqual([]);
  });

  it('typing reaches the other members; an outsider’s typing for the channel reaches no one', async () => {
    const [m, g, o] = await Promise.all([live(member), live(manager), live(outsider)]);
    m.socket.emit('channel-events', { channel_id: channelId, message_id: null, data: { type: 'typing', data: { typing: true } } });
    expect(await g.next(ofType('typing'))).toMatchObject({ channel_id: channelId, user: { id: member.id, name: 'Mia Member' }, data: { data: { typing: true } } });
    o.socket.emit('channel-events', { channel_id: channelId, data: { type: 'typing', data: { typing: true } } });
    // Junk is ignored without an error.
    for (const junk of [null, 'x', { channel_id: 5 }, { channel_id: channelId, data: { type: 'message', data: { content: 'forged' } } }]) o.socket.emit('channel-events', junk);
    m.socket.emit('channel-events', { channel_id: channelId, data: { type: 'message', data: { content: 'forged by a member' } } });
    await pause(200);
    expect(g.events.filter((e) => e.user?.id === outsider.id)).toEqual([]);
    expect(g.events.filter((e) => e.data.type === 'message')).toEqual([]);
    expect(m.events.filter((e) => e.data.type === 'typing')).toEqual([]);
  });

  it('read positions reach the members', async () => {
    const [m, g] = await Promise.all([live(member), live(manager)]);
    const posted = await postMessage(server, manager, channelId, { content: 'read me' });
    await server.as(member.token).post(`${C}/${channelId}/read`, { message_id: posted.id });
    expect((await g.next(ofType('read'))).data.data).toEqual({ channel_id: channelId, user_id: member.id, last_read_at: posted.created_at });
    await m.next(ofType('read'));
  });

  it('a member removed from a channel stops hearing it at once and is told their list changed; added back, they hear it again', async () => {
    const id = await createChannel(server, manager, { name: 'shrinking', access_control: { read: { user_ids: [member.id, outsider.id] } } });
    const o = await live(outsider);
    expect(await o.joined()).toContain(id);
    await server.as(manager.token).post(`${C}/${id}/update`, { name: 'shrinking', access_control: { read: { user_ids: [member.id] } } });
    await o.next((e) => e.data.type === 'channels');
    expect(await o.joined()).not.toContain(id);
    await postMessage(server, member, id, { content: 'not for Otto' });
    await pause(150);
    expect(o.events.filter((e) => e.data.type === 'message')).toEqual([]);
    await server.as(manager.token).post(`${C}/${id}/update`, { name: 'shrinking', access_control: { read: { user_ids: [member.id, outsider.id] } } });
    await eventually(async () => (await o.joined()).includes(id));
    const back = await postMessage(server, member, id, { content: 'welcome back' });
    await o.next(ofType('message', back.id));
  });

  it('a group change that takes access away ends the subscription (no HTTP call to the channel needed)', async () => {
    const group = (await server.as(admin.token).post('/api/v1/groups/create', { name: 'Readers' })).body.id as string;
    await server.as(admin.token).post(`/api/v1/groups/id/${group}/update`, { name: 'Readers', user_ids: [outsider.id] });
    const id = await createChannel(server, admin, { name: 'by-group', access_control: { read: { group_ids: [group] } } });
    const o = await live(outsider);
    expect(await o.joined()).toContain(id);
    await server.as(admin.token).post(`/api/v1/groups/id/${group}/update`, { name: 'Readers', user_ids: [] });
    await eventually(async () => !(await o.joined()).includes(id));
  });

  it('turning channels off leaves every room; a demoted account leaves them too', async () => {
    const [m, g] = await Promise.all([live(member), live(manager)]);
    await setChannels(server, admin, false);
    try {
      await eventually(async () => (await m.joined()).length === 0);
    } finally {
      await setChannels(server, admin, true);
    }
    await eventually(async () => (await m.joined()).includes(channelId));
    const demoted = await server.as(admin.token).post(`/api/v1/users/${manager.id}/update`, { name: manager.name, email: manager.email, role: 'pending' });
    expect(demoted.status).toBe(200);
    try {
      // Pending again: the session rule closes the account's sockets, so it leaves every room with them.
      await eventually(() => g.socket.disconnected);
    } finally {
      await server.as(admin.token).post(`/api/v1/users/${manager.id}/update`, { name: manager.name, email: manager.email, role: 'user' });
    }
  });

  it('signing out ends the socket of that session within a second', async () => {
    const session = await server.anon.post('/api/v1/auths/signin', { email: member.email, password: member.password });
    const c = await connectLive(server, session.body.token);
    clients.push(c);
    const dropped = new Promise<void>((resolve) => c.socket.once('disconnect', () => resolve()));
    const started = Date.now();
    expect((await server.as(session.body.token).get('/api/v1/auths/signout')).status).toBe(200);
    await dropped;
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('@Name pings that member; @all pings everyone only from a manager; outsiders are never pinged', async () => {
    const [m, g, a, o] = await Promise.all([live(member), live(manager), live(admin), live(outsider)]);
    const mention = (e: ChannelEvent) => e.data.type === 'mention';
    const posted = await postMessage(server, member, channelId, { content: 'Hey @Max Manager, and @Otto Outsider: see `@Admin` and mail admin@example.com' });
    const notice = (await g.next(mention)).data.data as MentionNotice;
    expect(notice).toEqual({ channel_id: channelId, channel_name: 'live', message_id: posted.id, parent_id: null, author: { id: member.id, name: 'Mia Member' }, preview: expect.stringContaining('Hey @Max'), everyone: false });
    // Only members count as mentioned: Otto is not in this channel.
    expect(posted.meta).toEqual({ mentions: { user_ids: [manager.id], everyone: false } });
    await postMessage(server, member, channelId, { content: '@all lunch?' });
    await pause(200);
    expect(a.events.filter(mention)).toEqual([]);
    expect(o.events.filter(mention)).toEqual([]);
    expect(m.events.filter(mention)).toEqual([]);
    const everyone = await postMessage(server, manager, channelId, { content: '@here standup in 5' });
    expect(everyone.meta.mentions.everyone).toBe(true);
    for (const c of [m, a]) expect(((await c.next(mention)).data.data as MentionNotice).everyone).toBe(true);
    await pause(100);
    expect(o.events.filter(mention)).toEqual([]);
    expect(g.events.filter(mention)).toHaveLength(1);
  });

  it('@model answers in the channel, streamed to every member in batched frames, then saved whole', async () => {
    openai.reply({ pieces: ['The ', 'plan ', 'is ', '**ready**', '.'], delayMs: 30 });
    const [m, g] = await Promise.all([live(member), live(manager)]);
    await postMessage(server, manager, channelId, { content: 'We ship on Friday.' });
    const question = await postMessage(server, member, channelId, { content: '@gpt-fake what is the plan?' });
    const started = (await m.next((e) => e.data.type === 'message' && (e.data.data as { meta?: { model_id?: string } }).meta?.model_id === 'gpt-fake')).data.data as { id: string; meta: { status: string } };
    expect(started.meta.status).toBe('streaming');
    const final = (await g.next(ofType('message:update', started.id), 10_000)).data.data as { content: string; meta: Record<string, unknown>; user_id: string };
    // Each socket has its frames once it has the saved answer (sockets are not in step with each other).
    await m.next(ofType('message:update', started.id), 10_000);
    expect(final).toMatchObject({ content: 'The plan is **ready**.', user_id: member.id, meta: { model_id: 'gpt-fake', model_name: 'gpt-fake', status: 'done' } });
    for (const c of [m, g]) {
      const frames = c.events.filter(ofType('message:stream', started.id)).map((e) => e.data.data as MessageStreamDelta);
      expect(frames.length).toBeGreaterThan(0);
      // Frames are gathered (fewer than the pieces) and fit together at their offsets.
      expect(frames.length).toBeLessThanOrEqual(5);
      let text = '';
      for (const f of frames) {
        expect(f.offset).toBe(text.length);
        text += f.delta;
      }
      expect(text).toBe('The plan is **ready**.');
    }
    // The model read the channel: names before words, the question last.
    const sent = openai.lastChat()!.body.messages as Array<{ role: string; content: string }>;
    expect(sent[0]!.role).toBe('system');
    expect(sent[0]!.content).toContain('#live');
    expect(sent.slice(-2)).toEqual([
      { role: 'user', content: 'Max Manager: We ship on Friday.' },
      { role: 'user', content: 'Mia Member: @gpt-fake what is the plan?' },
    ]);
    const page = (await server.as(manager.token).get(`${C}/${channelId}/messages?limit=2`)).body as Array<{ id: string; content: string }>;
    expect(page.map((p) => p.id)).toEqual([started.id, question.id]);
    expect(page[0]!.content).toBe('The plan is **ready**.');
  });

  it('@model in a thread answers in the thread; a provider failure ends the answer as interrupted with the reason', async () => {
    const m = await live(member);
    const root = await postMessage(server, member, channelId, { content: 'thread for the model' });
    openai.replyOnce({ pieces: ['In ', 'thread.'] });
    await postMessage(server, member, channelId, { content: '@gpt-fake hello', parent_id: root.id });
    const answered = (await m.next((e) => e.data.type === 'message:update' && (e.data.data as { parent_id: string | null }).parent_id === root.id, 10_000)).data.data as { content: string };
    expect(answered.content).toBe('In thread.');
    openai.replyOnce({ status: 500, error: 'upstream exploded' });
    await postMessage(server, member, channelId, { content: '@gpt-fake again' });
    const failed = (await m.next((e) => e.data.type === 'message:update' && (e.data.data as { meta: { status: string } | null }).meta?.status === 'interrupted', 10_000)).data.data as { meta: { error: string } };
    expect(failed.meta.error).toBeTruthy();
  });

  it('a model the poster may not use does not answer', async () => {
    const created = await server.as(admin.token).post('/api/v1/models/create', { id: 'private-helper', name: 'Private helper', base_model_id: 'gpt-fake', access_control: { read: { user_ids: [] } } });
    expect(created.status).toBe(200);
    const m = await live(member);
    await postMessage(server, member, channelId, { content: '@private-helper tell me secrets' });
    await pause(300);
    expect(openai.chats()).toHaveLength(0);
    expect(m.events.filter((e) => (e.data.data as { meta?: { model_id?: string } } | null)?.meta?.model_id)).toEqual([]);
  });

  it('deleting an answer while it streams stops it: nothing more is sent or saved', async () => {
    openai.replyOnce({ pieces: Array.from({ length: 40 }, () => 'word '), delayMs: 40 });
    const m = await live(member);
    await postMessage(server, member, channelId, { content: '@gpt-fake write a long text' });
    const started = (await m.next((e) => e.data.type === 'message' && (e.data.data as { meta?: { model_id?: string } }).meta?.model_id === 'gpt-fake')).data.data as { id: string };
    await m.next(ofType('message:stream', started.id));
    expect((await server.as(member.token).delete(`${C}/${channelId}/messages/${started.id}/delete`)).status).toBe(200);
    await openai.waitForAbort(5_000);
    await pause(200);
    expect(m.events.filter(ofType('message:update', started.id))).toEqual([]);
    expect((await server.as(member.token).get(`${C}/${channelId}/messages/${started.id}`)).status).toBe(404);
  });
});
