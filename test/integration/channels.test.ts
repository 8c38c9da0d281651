import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_MESSAGE_CHARS } from '../../server/contracts/channels';
import { DEFAULT_PERMISSIONS } from '../../server/contracts/permissions';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';
import { C, createChannel, postMessage, setChannels, startChannelCast } from './channels-helpers';

type Who = 'member' | 'manager' | 'outsider' | 'admin';
const WHO: Who[] = ['member', 'manager', 'outsider', 'admin'];

/** Uploads a small file for a message of the channel, as `user`. */
async function upload(server: TestServer, user: TestUser, channelId: string, text = 'notes', name = 'notes.txt') {
  const form = new FormData();
  form.append('files', new Blob([text], { type: 'text/plain' }), name);
  return server.as(user.token).raw('POST', `${C}/${channelId}/files`, form);
}

describe('channels over HTTP', () => {
  let server: TestServer;
  let admin: TestUser;
  let member: TestUser;
  let manager: TestUser;
  let outsider: TestUser;
  let channelId: string;
  const users = () => ({ member, manager, outsider, admin });

  beforeAll(async () => {
    ({ server, admin, member, manager, outsider, channelId } = await startChannelCast('Project'));
  });
  afterAll(async () => {
    await server?.close();
  });

  /** A fresh message of the member's in the shared channel. */
  const memberMessage = async () => (await postMessage(server, member, channelId, { content: 'from the member' })).id as string;

  /**
   * The access matrix: every route × member (read), manager (write), outsider (no access), admin.
   * A channel the caller may not read answers 404 (it does not exist for them); managing it
   * needs write (403 for a member). Each case builds what it needs.
   */
  const ROUTES: Array<{ name: string; call: (u: TestUser) => Promise<{ status: number }>; expect: Record<Who, number> }> = [
    { name: 'GET /', call: (u) => server.as(u.token).get(`${C}/`), expect: { member: 200, manager: 200, outsider: 200, admin: 200 } },
    { name: 'POST /create', call: (u) => server.as(u.token).post(`${C}/create`, { name: `made by ${u.name}` }), expect: { member: 200, manager: 200, outsider: 200, admin: 200 } },
    { name: 'GET /search', call: (u) => server.as(u.token).get(`${C}/search?query=member`), expect: { member: 200, manager: 200, outsider: 200, admin: 200 } },
    { name: 'GET /:id', call: (u) => server.as(u.token).get(`${C}/${channelId}`), expect: { member: 200, manager: 200, outsider: 404, admin: 200 } },
    { name: 'GET /:id/members', call: (u) => server.as(u.token).get(`${C}/${channelId}/members`), expect: { member: 200, manager: 200, outsider: 404, admin: 200 } },
    {
      name: 'POST /:id/update',
      call: (u) => server.as(u.token).post(`${C}/${channelId}/update`, { name: 'project', access_control: { read: { user_ids: [member.id] }, write: { user_ids: [manager.id] } } }),
      expect: { member: 403, manager: 200, outsider: 404, admin: 200 },
    },
    {
      name: 'DELETE /:id/delete',
      call: async (u) => server.as(u.token).delete(`${C}/${await createChannel(server, admin, { name: 'doomed', access_control: { read: { user_ids: [member.id] }, write: { user_ids: [manager.id] } } })}/delete`),
      expect: { member: 403, manager: 200, outsider: 404, admin: 200 },
    },
    { name: 'POST /:id/read', call: (u) => server.as(u.token).post(`${C}/${channelId}/read`, {}), expect: { member: 200, manager: 200, outsider: 404, admin: 200 } },
    { name: 'POST /:id/files', call: (u) => upload(server, u, channelId), expect: { member: 200, manager: 200, outsider: 404, admin: 200 } },
    { name: 'GET /:id/messages', call: (u) => server.as(u.token).get(`${C}/${channelId}/messages`), expect: { member: 200, manager: 200, outsider: 404, admin: 200 } },
    { name: 'POST /:id/messages/post', call: (u) => server.as(u.token).post(`${C}/${channelId}/messages/post`, { content: 'hi' }), expect: { member: 200, manager: 200, outsider: 404, admin: 200 } },
    { name: 'GET /:id/messages/:message_id', call: async (u) => server.as(u.token).get(`${C}/${channelId}/messages/${await memberMessage()}`), expect: { member: 200, manager: 200, outsider: 404, admin: 200 } },
    {
      name: 'GET /:id/messages/:message_id/thread',
      call: async (u) => server.as(u.token).get(`${C}/${channelId}/messages/${await memberMessage()}/thread`),
      expect: { member: 200, manager: 200, outsider: 404, admin: 200 },
    },
    {
      name: 'POST /:id/messages/:message_id/update',
      call: async (u) => server.as(u.token).post(`${C}/${channelId}/messages/${await memberMessage()}/update`, { content: 'changed' }),
      // Only the author changes a message; managers and admins may delete it, not put words in it.
      expect: { member: 200, manager: 403, outsider: 404, admin: 403 },
    },
    {
      name: 'DELETE /:id/messages/:message_id/delete',
      call: async (u) => server.as(u.token).delete(`${C}/${channelId}/messages/${await memberMessage()}/delete`),
      expect: { member: 200, manager: 200, outsider: 404, admin: 200 },
    },
    {
      name: 'POST /:id/messages/:message_id/reactions/add',
      call: async (u) => server.as(u.token).post(`${C}/${channelId}/messages/${await memberMessage()}/reactions/add`, { name: '👍' }),
      expect: { member: 200, manager: 200, outsider: 404, admin: 200 },
    },
    {
      name: 'POST /:id/messages/:message_id/reactions/remove',
      call: async (u) => server.as(u.token).post(`${C}/${channelId}/messages/${await memberMessage()}/reactions/remove`, { name: '👍' }),
      expect: { member: 200, manager: 200, outsider: 404, admin: 200 },
    },
    {
      name: 'GET /:id/messages/:message_id/files/:file_id',
      call: async (u) => {
        const file = (await upload(server, member, channelId)).body[0].id as string;
        const message = await postMessage(server, member, channelId, { content: '', data: { files: [{ id: file }] } });
        return server.as(u.token).get(`${C}/${channelId}/messages/${message.id}/files/${file}`);
      },
      expect: { member: 200, manager: 200, outsider: 404, admin: 200 },
    },
  ];

  describe.each(ROUTES)('$name', ({ call, expect: statuses }) => {
    it.each(WHO)('answers %s as the access rules say', async (who) => {
      expect((await call(users()[who])).status).toBe(statuses[who]);
    });
  });

  it('every route refuses without credentials (401) and refuses pending accounts (403)', async () => {
    const pending = await buildUser(server, admin, 'pending');
    for (const path of [`${C}/`, `${C}/${channelId}`, `${C}/${channelId}/messages`]) {
      expect((await server.anon.get(path)).status).toBe(401);
      expect((await server.as(pending.token).get(path)).status).toBe(403);
    }
    expect((await server.anon.post(`${C}/${channelId}/messages/post`, { content: 'x' })).status).toBe(401);
  });

  it('with channels turned off every route answers 403 CHANNELS_DISABLED, for admins too, before reading the body', async () => {
    const messageId = await memberMessage();
    await setChannels(server, admin, false);
    try {
      for (const u of [member, manager, outsider, admin]) {
        const as = server.as(u.token);
        const answers = await Promise.all([
          as.get(`${C}/`),
          as.post(`${C}/create`, { name: 'x' }),
          as.get(`${C}/search?query=x`),
          as.get(`${C}/${channelId}`),
          as.post(`${C}/${channelId}/update`, { nonsense: true }),
          as.delete(`${C}/${channelId}/delete`),
          as.post(`${C}/${channelId}/read`, {}),
          as.get(`${C}/${channelId}/messages`),
          as.post(`${C}/${channelId}/messages/post`, { content: 'x' }),
          as.get(`${C}/${channelId}/messages/${messageId}`),
          as.get(`${C}/${channelId}/messages/${messageId}/thread`),
          as.post(`${C}/${channelId}/messages/${messageId}/update`, {}),
          as.delete(`${C}/${channelId}/messages/${messageId}/delete`),
          as.post(`${C}/${channelId}/messages/${messageId}/reactions/add`, { name: 'x' }),
          as.post(`${C}/${channelId}/messages/${messageId}/reactions/remove`, { name: 'x' }),
        ]);
        for (const res of answers) {
          expect(res.status).toBe(403);
          expect(res.body.code).toBe('CHANNELS_DISABLED');
        }
      }
      // The channel and its messages are still there for when they come back.
      expect((await server.as(admin.token).get('/api/v1/auths/admin/config')).body.ENABLE_CHANNELS).toBe(false);
      expect((await server.anon.get('/api/config')).body.features.enable_channels).toBe(false);
    } finally {
      await setChannels(server, admin, true);
    }
    expect((await server.as(member.token).get(`${C}/${channelId}/messages/${messageId}`)).status).toBe(200);
    expect((await server.anon.get('/api/config')).body.features.enable_channels).toBe(true);
  });

  it('creating needs features.channels: without it a user gets 403, an admin still creates', async () => {
    await server.services.permissions.setDefaults({ ...DEFAULT_PERMISSIONS, features: { ...DEFAULT_PERMISSIONS.features, channels: false } });
    try {
      const refused = await server.as(member.token).post(`${C}/create`, { name: 'not allowed' });
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('CHANNELS_CREATE_FORBIDDEN');
      expect((await server.as(admin.token).post(`${C}/create`, { name: 'admins may' })).status).toBe(200);
      // A group can grant it back.
      const group = await server.as(admin.token).post('/api/v1/groups/create', { name: 'Channel makers', permissions: { features: { channels: true } } });
      await server.as(admin.token).post(`/api/v1/groups/id/${group.body.id}/update`, { name: 'Channel makers', user_ids: [member.id], permissions: { features: { channels: true } } });
      expect((await server.as(member.token).post(`${C}/create`, { name: 'granted' })).status).toBe(200);
    } finally {
      await server.services.permissions.setDefaults(DEFAULT_PERMISSIONS);
    }
  });

  it('lists only the channels a person is a member of, with unread counts that the read position resets', async () => {
    const open = await createChannel(server, admin, { name: 'Everyone' });
    const listed = async (u: TestUser) => (await server.as(u.token).get(`${C}/`)).body as Array<{ id: string; unread_count: number; write_access: boolean; access_control: unknown }>;
    expect((await listed(outsider)).map((c) => c.id)).toContain(open);
    expect((await listed(outsider)).map((c) => c.id)).not.toContain(channelId);
    expect((await listed(member)).find((c) => c.id === channelId)?.write_access).toBe(false);
    expect((await listed(manager)).find((c) => c.id === channelId)?.write_access).toBe(true);
    // Its members: those listed for reading or writing, the creator and admins.
    expect((await server.as(member.token).get(`${C}/${channelId}/members`)).body).toEqual([
      { id: admin.id, name: 'Admin' },
      { id: manager.id, name: 'Max Manager' },
      { id: member.id, name: 'Mia Member' },
    ]);
    // Members who do not manage see that a channel is private, not how its access is set.
    expect((await listed(member)).find((c) => c.id === channelId)?.access_control).toEqual({});

    await server.as(member.token).post(`${C}/${open}/read`, {});
    const posted = [];
    for (const text of ['one', 'two', 'three']) posted.push(await postMessage(server, outsider, open, { content: text }));
    // Replies in threads are counted on their thread, not as unread messages of the channel.
    await postMessage(server, outsider, open, { content: 'in a thread', parent_id: posted[0]!.id });
    expect((await listed(member)).find((c) => c.id === open)?.unread_count).toBe(3);
    // Reading up to a message leaves what came after it unread.
    expect((await server.as(member.token).post(`${C}/${open}/read`, { message_id: posted[1]!.id })).status).toBe(200);
    expect((await listed(member)).find((c) => c.id === open)?.unread_count).toBe(1);
    // One's own messages are never unread.
    expect((await listed(outsider)).find((c) => c.id === open)?.unread_count).toBe(0);
    const read = await server.as(member.token).post(`${C}/${open}/read`, {});
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ channel_id: open, user_id: member.id, last_read_at: expect.any(Number) });
    expect((await listed(member)).find((c) => c.id === open)?.unread_count).toBe(0);
    // A read position kept across sessions: a new sign-in sees the same.
    const again = await server.anon.post('/api/v1/auths/signin', { email: member.email, password: member.password });
    expect(((await server.as(again.body.token).get(`${C}/`)).body as Array<{ id: string; unread_count: number; last_read_at: number }>).find((c) => c.id === open)).toMatchObject({ unread_count: 0, last_read_at: read.body.last_read_at });
  });

  it('answers the Channel and ChannelMessage shapes, times in nanoseconds, pages newest first', async () => {
    const id = await createChannel(server, member, { name: '  Shapes  ', description: 'where shapes are checked' });
    const got = await server.as(member.token).get(`${C}/${id}`);
    expect(got.body).toEqual({
      id,
      user_id: member.id,
      type: null,
      name: 'shapes',
      description: 'where shapes are checked',
      data: null,
      meta: null,
      access_control: null,
      created_at: expect.any(Number),
      updated_at: expect.any(Number),
      write_access: true,
      unread_count: 0,
      last_read_at: null,
      last_message_at: null,
    });
    expect(got.body.created_at).toBeGreaterThan(Date.now() * 1e6 - 60e9 * 1e3);
    const first = await postMessage(server, member, id, { content: 'first' });
    const second = await postMessage(server, manager, id, { content: 'second' });
    expect(second.created_at).toBeGreaterThan(first.created_at);
    const page = await server.as(member.token).get(`${C}/${id}/messages?skip=0&limit=50`);
    expect(page.body.map((m: { content: string }) => m.content)).toEqual(['second', 'first']);
    expect(page.body[0]).toEqual({
      id: second.id,
      user_id: manager.id,
      channel_id: id,
      parent_id: null,
      content: 'second',
      data: null,
      meta: null,
      created_at: second.created_at,
      updated_at: second.updated_at,
      user: { id: manager.id, name: 'Max Manager', profile_image_url: '/user.png' },
      reply_count: 0,
      latest_reply_at: null,
      reactions: [],
    });
    expect((await server.as(member.token).get(`${C}/${id}/messages?skip=1&limit=1`)).body.map((m: { id: string }) => m.id)).toEqual([first.id]);
  });

  it('threads: replies counted on their first message, listed newest first with the first message last; a reply to a reply stays in the thread', async () => {
    const root = await postMessage(server, member, channelId, { content: 'thread root' });
    const r1 = await postMessage(server, manager, channelId, { content: 'reply one', parent_id: root.id });
    const r2 = await postMessage(server, member, channelId, { content: 'reply two', parent_id: r1.id });
    expect(r2.parent_id).toBe(root.id);
    const thread = await server.as(member.token).get(`${C}/${channelId}/messages/${root.id}/thread`);
    expect(thread.body.map((m: { content: string }) => m.content)).toEqual(['reply two', 'reply one', 'thread root']);
    const top = (await server.as(member.token).get(`${C}/${channelId}/messages?limit=50`)).body as Array<{ id: string; reply_count: number; latest_reply_at: number }>;
    expect(top.map((m) => m.id)).not.toContain(r1.id);
    expect(top.find((m) => m.id === root.id)).toMatchObject({ reply_count: 2, latest_reply_at: r2.created_at });
    // Deleting the first message deletes the thread.
    expect((await server.as(member.token).delete(`${C}/${channelId}/messages/${root.id}/delete`)).body).toBe(true);
    expect((await server.as(member.token).get(`${C}/${channelId}/messages/${r1.id}`)).status).toBe(404);
    // A parent in another channel is not found.
    const other = await createChannel(server, member, { name: 'elsewhere' });
    const foreign = await postMessage(server, member, other, { content: 'over there' });
    expect((await server.as(member.token).post(`${C}/${channelId}/messages/post`, { content: 'x', parent_id: foreign.id })).status).toBe(404);
  });

  it('reactions: grouped by name with who gave them; twice is once; removing takes only the caller’s', async () => {
    const message = await postMessage(server, member, channelId, { content: 'react to me' });
    const path = `${C}/${channelId}/messages/${message.id}/reactions`;
    for (const u of [member, manager, member]) expect((await server.as(u.token).post(`${path}/add`, { name: '🎉' })).status).toBe(200);
    await server.as(admin.token).post(`${path}/add`, { name: ':thumbsup:' });
    await server.as(manager.token).post(`${path}/remove`, { name: ':thumbsup:' });
    const got = (await server.as(member.token).get(`${C}/${channelId}/messages/${message.id}`)).body;
    expect(got.reactions).toEqual([
      { name: '🎉', users: [{ id: member.id, name: 'Mia Member' }, { id: manager.id, name: 'Max Manager' }], count: 2 },
      { name: ':thumbsup:', users: [{ id: admin.id, name: 'Admin' }], count: 1 },
    ]);
    for (const bad of [{}, { name: '' }, { name: 'two words' }, { name: 'x'.repeat(65) }, { name: 5 }]) expect((await server.as(member.token).post(`${path}/add`, bad)).status).toBe(422);
  });

  it('edits: the author changes the text; the answer and the page show it', async () => {
    const message = await postMessage(server, member, channelId, { content: 'typo hree' });
    const edited = await server.as(member.token).post(`${C}/${channelId}/messages/${message.id}/update`, { content: 'typo here' });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ id: message.id, content: 'typo here', created_at: message.created_at });
    expect(edited.body.updated_at).toBeGreaterThan(message.updated_at);
    expect((await server.as(manager.token).get(`${C}/${channelId}/messages/${message.id}`)).body.content).toBe('typo here');
  });

  it('files: uploaded to the channel, posted once, read by members only, gone with their message', async () => {
    const up = await upload(server, member, channelId, 'quarterly numbers', 'q3.txt');
    expect(up.status).toBe(200);
    const fileId = up.body[0].id as string;
    const message = await postMessage(server, member, channelId, { content: 'the report', data: { files: [{ type: 'file', id: fileId }] } });
    expect(message.data.files).toEqual([{ type: 'file', id: fileId, name: 'q3.txt', size: 17, content_type: 'text/plain', url: `${C}/${channelId}/messages/${message.id}/files/${fileId}` }]);
    const download = await server.as(manager.token).get(message.data.files[0].url);
    expect(download.status).toBe(200);
    expect(download.text).toBe('quarterly numbers');
    expect(download.headers.get('content-security-policy')).toContain('sandbox');
    // The same file cannot go on a second message; someone else's upload cannot go on one at all.
    expect((await server.as(member.token).post(`${C}/${channelId}/messages/post`, { content: 'again', data: { files: [{ id: fileId }] } })).body.code).toBe('FILE_ALREADY_POSTED');
    const managers = (await upload(server, manager, channelId)).body[0].id as string;
    expect((await server.as(member.token).post(`${C}/${channelId}/messages/post`, { content: 'theirs', data: { files: [{ id: managers }] } })).status).toBe(403);
    // A chat attachment is not a channel file.
    const chatForm = new FormData();
    chatForm.append('files', new Blob(['chat']), 'chat.txt');
    const chatFile = (await server.as(member.token).raw('POST', '/api/v1/chats/attachment/upload', chatForm)).body[0].id as string;
    expect((await server.as(member.token).post(`${C}/${channelId}/messages/post`, { content: 'x', data: { files: [{ id: chatFile }] } })).body.code).toBe('FILE_NOT_FOR_CHANNEL');
    // A file id guessed on another message of the channel is not served.
    const other = await postMessage(server, manager, channelId, { content: 'no files here' });
    expect((await server.as(member.token).get(`${C}/${channelId}/messages/${other.id}/files/${fileId}`)).status).toBe(404);
    expect((await server.as(member.token).delete(`${C}/${channelId}/messages/${message.id}/delete`)).status).toBe(200);
    expect((await server.as(member.token).get(`/api/v1/files/${fileId}`)).status).toBe(404);
  });

  it('search finds messages holding every word, in the caller’s channels only, and never deleted ones', async () => {
    const secret = await createChannel(server, admin, { name: 'board', access_control: { read: { user_ids: [manager.id] } } });
    await postMessage(server, manager, secret, { content: 'Budget zebra plan for the board' });
    const visible = await postMessage(server, member, channelId, { content: 'The zebra budget is ready' });
    const gone = await postMessage(server, member, channelId, { content: 'zebra budget draft (old)' });
    await server.as(member.token).delete(`${C}/${channelId}/messages/${gone.id}/delete`);
    const found = (await server.as(member.token).get(`${C}/search?query=${encodeURIComponent('ZEBRA budget')}`)).body as Array<{ id: string; channel: { id: string; name: string } }>;
    expect(found.map((m) => m.id)).toEqual([visible.id]);
    expect(found[0]!.channel).toEqual({ id: channelId, name: 'project' });
    expect((await server.as(manager.token).get(`${C}/search?query=zebra`)).body).toHaveLength(2);
    // LIKE wildcards are plain characters.
    expect((await server.as(member.token).get(`${C}/search?query=${encodeURIComponent('%')}`)).body).toEqual([]);
    for (const bad of ['', `?query=${'x'.repeat(201)}`, '?query=a&limit=0', '?query=a&limit=abc']) expect((await server.as(member.token).get(`${C}/search${bad}`)).status).toBe(422);
  });

  it('refuses bad input with 4xx naming the problem', async () => {
    const as = server.as(member.token);
    const cases: Array<[string, unknown, number, string?]> = [
      [`${C}/create`, {}, 422],
      [`${C}/create`, { name: '   ' }, 422],
      [`${C}/create`, { name: 'x'.repeat(65) }, 422],
      [`${C}/create`, { name: 'bad\u0007name' }, 422],
      [`${C}/create`, { name: 'ok', access_control: 'everyone' }, 422],
      [`${C}/create`, { name: 'ok', data: { knowledge_ids: 'kb' } }, 422],
      [`${C}/${channelId}/messages/post`, {}, 422],
      [`${C}/${channelId}/messages/post`, { content: '   ' }, 422, 'MESSAGE_EMPTY'],
      [`${C}/${channelId}/messages/post`, { content: 'x'.repeat(MAX_MESSAGE_CHARS + 1) }, 422],
      [`${C}/${channelId}/messages/post`, { content: 'nul\u0000byte' }, 422],
      [`${C}/${channelId}/messages/post`, { content: 'x', data: { files: Array.from({ length: 11 }, (_, i) => ({ id: `f${i}` })) } }, 422],
      [`${C}/${channelId}/messages/post`, { content: 'x', data: { files: [{ id: 'no-such-file' }] } }, 404],
      [`${C}/${channelId}/messages/post`, { content: 'x', parent_id: 'no-such-message' }, 404],
      [`${C}/${channelId}/read`, { message_id: 'no-such-message' }, 404],
    ];
    for (const [path, body, status, code] of cases) {
      const res = await as.post(path, body);
      expect(res.status, `${path} ${JSON.stringify(body).slice(0, 80)}`).toBe(status);
      expect(typeof res.body.detail).toBe('string');
      if (code) expect(res.body.code).toBe(code);
    }
    const raw = await as.raw('POST', `${C}/${channelId}/messages/post`, '{"content": ', { 'content-type': 'application/json' });
    expect(raw.status).toBe(400);
    expect((await as.get(`${C}/no-such-channel`)).status).toBe(404);
    expect((await as.get(`${C}/${channelId}/messages/no-such-message/thread`)).status).toBe(404);
    expect((await as.get(`${C}/${channelId}/messages?limit=1000`)).status).toBe(422);
    expect((await as.get(`${C}/${channelId}/messages?skip=-1`)).status).toBe(422);
  });

  it('managers change members: a member removed from the channel no longer reads it', async () => {
    const id = await createChannel(server, manager, { name: 'team', access_control: { read: { user_ids: [member.id, outsider.id] } } });
    expect((await server.as(outsider.token).get(`${C}/${id}/messages`)).status).toBe(200);
    const updated = await server.as(manager.token).post(`${C}/${id}/update`, { name: 'team', description: 'smaller now', access_control: { read: { user_ids: [member.id] } } });
    expect(updated.body).toMatchObject({ name: 'team', description: 'smaller now', access_control: { read: { user_ids: [member.id], group_ids: [] } } });
    expect((await server.as(outsider.token).get(`${C}/${id}/messages`)).status).toBe(404);
    expect((await server.as(outsider.token).post(`${C}/${id}/messages/post`, { content: 'let me in' })).status).toBe(404);
    // Group membership counts: adding the outsider to a group the channel lets read lets them in.
    const group = await server.as(admin.token).post('/api/v1/groups/create', { name: 'Team group' });
    await server.as(manager.token).post(`${C}/${id}/update`, { name: 'team', access_control: { read: { group_ids: [group.body.id], user_ids: [member.id] } } });
    await server.as(admin.token).post(`/api/v1/groups/id/${group.body.id}/update`, { name: 'Team group', user_ids: [outsider.id] });
    expect((await server.as(outsider.token).get(`${C}/${id}/messages`)).status).toBe(200);
  });

  it('deleting a channel removes its messages, files and read positions', async () => {
    const id = await createChannel(server, member, { name: 'short-lived' });
    const fileId = (await upload(server, member, id)).body[0].id as string;
    await postMessage(server, member, id, { content: 'bye', data: { files: [{ id: fileId }] } });
    await server.as(member.token).post(`${C}/${id}/read`, {});
    expect((await server.as(member.token).delete(`${C}/${id}/delete`)).body).toBe(true);
    expect((await server.as(member.token).get(`${C}/${id}`)).status).toBe(404);
    expect((await server.as(member.token).get(`/api/v1/files/${fileId}`)).status).toBe(404);
    const db = server.services.db;
    expect(await db('channel_messages').where({ channel_id: id }).count({ n: '*' })).toEqual([{ n: 0 }]);
    expect(await db('channel_reads').where({ channel_id: id }).count({ n: '*' })).toEqual([{ n: 0 }]);
  });
});

describe('channel limits', () => {
  let server: TestServer;
  let admin: TestUser;
  let alice: TestUser;
  let channelId: string;

  beforeAll(async () => {
    server = await startTestServer({ envVars: { PARLEY_CHANNEL_RATE_LIMIT: '6' } });
    admin = await signupAdmin(server);
    alice = await buildUser(server, admin, 'user', 'Alice');
    await setChannels(server, admin, true);
    channelId = await createChannel(server, admin, { name: 'limits' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('a person posting faster than the limit gets 429 with Retry-After; others are not held back', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 8; i += 1) statuses.push((await server.as(alice.token).post(`${C}/${channelId}/messages/post`, { content: `spam ${i}` })).status);
    expect(statuses.slice(0, 6)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(statuses.slice(6)).toEqual([429, 429]);
    const refused = await server.as(alice.token).post(`${C}/${channelId}/messages/post`, { content: 'more' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.body.code).toBe('RATE_LIMITED');
    expect((await server.as(admin.token).post(`${C}/${channelId}/messages/post`, { content: 'I can still talk' })).status).toBe(200);
  });
});
