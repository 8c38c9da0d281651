import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDatabase, migrate, openDatabase, type Db } from '../../platform/db/knex';
import { createChatSearchRepo } from './chat-search.repo';
import { createChatSearchService } from './chat-search.service';

const AT = Date.UTC(2026, 0, 1) / 1000;
const MIGRATION = '202611270301-chat-message-chats';

function chat(id: string, userId: string, title: string) {
  return { id, user_id: userId, title, pinned: false, archived: false, folder_id: null, current_message_id: null, tags: '[]', share_id: null, created_at: AT, updated_at: AT, activity_ms: AT * 1000 };
}
function message(id: string, chatId: string, content: string) {
  return { id, chat_id: chatId, parent_id: null, role: 'user', content, model: null, status: 'complete', created_at: AT, updated_at: AT, seq: 1 };
}

describe('chat search on a database that had messages before migration 202611270301', () => {
  let dir: string;
  let db: Db;
  const search = (text: string) => createChatSearchService({ repo: createChatSearchRepo(db) }).search('u1', { text, page: 1 });

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'parley-chat-message-chats-'));
    db = openDatabase(dir);
    await migrate(db);
    await db.migrate.down({ name: MIGRATION });
    for (const id of ['u1', 'u2']) await db('users').insert({ id, name: id, email: `${id}@example.com`, role: 'user', profile_image_url: '', created_at: AT, updated_at: AT, last_active_at: AT });
    await db('chats').insert([chat('old-1', 'u1', 'Trip'), chat('old-2', 'u1', 'Budget'), chat('theirs', 'u2', 'Theirs')]);
    await db('chat_messages').insert([message('a', 'old-1', 'pack the walrus costume'), message('b', 'old-2', 'the walrus fund'), message('c', 'theirs', 'a walrus too')]);
    await migrate(db);
  });
  afterAll(async () => {
    await closeDatabase(db);
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds messages written before the migration, newest first, only in the caller\'s chats', async () => {
    const found = await search('walrus');
    expect(found.map((c) => [c.id, c.snippet])).toEqual([['old-2', 'the walrus fund'], ['old-1', 'pack the walrus costume']]);
  });

  it('follows messages written, moved and deleted after it, and chats deleted', async () => {
    await db('chats').insert(chat('new', 'u1', 'New'));
    await db('chat_messages').insert(message('d', 'new', 'walrus sighting'));
    expect((await search('walrus')).map((c) => c.id)).toEqual(['new', 'old-2', 'old-1']);

    await db('chat_messages').where({ id: 'a' }).update({ chat_id: 'theirs' });
    expect((await search('walrus')).map((c) => c.id)).toEqual(['new', 'old-2']);

    await db('chat_messages').where({ id: 'b' }).delete();
    await db('chats').where({ id: 'new' }).delete();
    expect(await search('walrus')).toEqual([]);
    expect(await db('chat_message_chats').count({ n: '*' }).first()).toEqual({ n: 2 });
  });
});

describe('chat search when most matches are in other people\'s chats', () => {
  let dir: string;
  let db: Db;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'parley-chat-search-owners-'));
    db = openDatabase(dir);
    await migrate(db);
    for (const id of ['u1', 'u2']) await db('users').insert({ id, name: id, email: `${id}@example.com`, role: 'user', profile_image_url: '', created_at: AT, updated_at: AT, last_active_at: AT });
    // 129 chats of u1's with one older message each, then 901 of u2's with three newer ones: a
    // newest-first scan reads every one of u2's 2,703 matches before the first of u1's.
    const chats = Array.from({ length: 1030 }, (_, k) => chat(`c${k}`, k < 129 ? 'u1' : 'u2', `Chat ${k}`));
    await db.batchInsert('chats', chats, 200);
    const messages = [];
    for (let k = 0; k < 129; k += 1) messages.push(message(`m${k}`, `c${k}`, `the otter log of chat ${k}`));
    for (let round = 0; round < 3; round += 1) for (let k = 129; k < 1030; k += 1) messages.push({ ...message(`m${k}-${round}`, `c${k}`, `round ${round} of the otter log`), seq: round + 1 });
    await db.batchInsert('chat_messages', messages, 200);
  });
  afterAll(async () => {
    await closeDatabase(db);
    rmSync(dir, { recursive: true, force: true });
  });

  it('pages through only the caller\'s chats, newest mention first, without gaps or repeats', async () => {
    const service = createChatSearchService({ repo: createChatSearchRepo(db) });
    const mine = (await db('chats').where({ user_id: 'u1' }).select('id')).map((r: { id: string }) => r.id);
    expect(mine).toHaveLength(129);
    const expected = [...mine].sort((a, b) => Number(b.slice(1)) - Number(a.slice(1)));
    const page1 = await service.search('u1', { text: 'otter', page: 1 });
    const page2 = await service.search('u1', { text: 'otter', page: 2 });
    const page3 = await service.search('u1', { text: 'otter', page: 3 });
    expect([...page1, ...page2, ...page3].map((c) => c.id)).toEqual(expected);
    expect(page3).toHaveLength(9);
    expect(page1[0]!.snippet).toBe('the otter log of chat 128');
  });
});
