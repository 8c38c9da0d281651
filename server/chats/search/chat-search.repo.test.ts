import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatSearchEntry } from '../../contracts/chat-library';
import { closeDatabase, migrate, openDatabase, type Db } from '../../platform/db/knex';
import { createChatSearchRepo } from './chat-search.repo';
import { createChatSearchService } from './chat-search.service';

const CHATS = 1300;
const PER_CHAT = 4;
const DAY = 86_400;
const BASE = Date.UTC(2026, 0, 1) / 1000;

// Deterministic text: "common" in ~60% of messages, accents and hyphenated words in some, a rare word in 1%.
let seed = 7;
const rand = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
const filler = ['lorem', 'ipsum', 'dolor', 'sit', 'amet', 'tempor', 'magna', 'aliqua', 'veniam', 'nostrud'];
function content(): string {
  const words = Array.from({ length: 12 }, () => filler[Math.floor(rand() * filler.length)]!);
  if (rand() < 0.6) words.splice(Math.floor(rand() * words.length), 0, rand() < 0.5 ? 'common' : 'Common,');
  if (rand() < 0.1) words.push('Café crème');
  if (rand() < 0.05) words.push('CAFE');
  if (rand() < 0.08) words.unshift('the e-mail said');
  if (rand() < 0.01) words.push('zebra');
  return words.join(' ');
}

describe('chat search: FTS5 and the word index (no FTS5) give the same pages', () => {
  let dir: string;
  let db: Db;
  const withFts = () => createChatSearchService({ repo: createChatSearchRepo(db) });
  let fts: ReturnType<typeof withFts>;
  let words: ReturnType<typeof withFts>;
  /** chat id → message rows (rowid, content), and titles, as stored. */
  const messages = new Map<string, Array<{ r: number; content: string }>>();
  const titles = new Map<string, string>();

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'parley-chat-search-'));
    db = openDatabase(dir);
    await migrate(db);
    for (const id of ['u1', 'u2']) await db('users').insert({ id, name: id, email: `${id}@example.com`, role: 'user', profile_image_url: '', created_at: BASE, updated_at: BASE, last_active_at: BASE });
    const chats = [];
    for (let k = 0; k < CHATS; k += 1) {
      const at = BASE + k * DAY;
      const title = k % 97 === 0 ? `Common ground ${k}` : `Chat ${k}`;
      titles.set(`c${k}`, title);
      chats.push({ id: `c${k}`, user_id: k < 20 ? 'u2' : 'u1', title, pinned: false, archived: false, folder_id: null, current_message_id: null, tags: k % 10 === 0 ? '["Work"]' : '[]', share_id: null, created_at: at, updated_at: at, activity_ms: at * 1000 });
    }
    await db.batchInsert('chats', chats, 200);
    // Messages go in round by round over a shuffled chat order, so each chat's rowids interleave with others'.
    const order = Array.from({ length: CHATS }, (_, k) => k).sort(() => rand() - 0.5);
    const rows = [];
    for (let m = 0; m < PER_CHAT; m += 1) {
      for (const k of order) {
        if (k % 211 === 0 && m > 0) continue; // a few chats with a single message
        rows.push({ id: `m${k}-${m}`, chat_id: `c${k}`, parent_id: m === 0 ? null : `m${k}-${m - 1}`, role: m % 2 === 0 ? 'user' : 'assistant', content: content(), model: null, status: 'complete', created_at: BASE, updated_at: BASE, seq: m + 1 });
      }
    }
    await db.batchInsert('chat_messages', rows, 100);
    for (const r of (await db('chat_messages').select('rowid as r', 'chat_id', 'content')) as Array<{ r: number; chat_id: string; content: string }>) {
      const list = messages.get(r.chat_id) ?? [];
      list.push({ r: r.r, content: r.content });
      messages.set(r.chat_id, list);
    }
    fts = withFts();
    words = createChatSearchService({ repo: createChatSearchRepo(db, { useFts: false }) });
  });
  afterAll(async () => {
    await closeDatabase(db);
    rmSync(dir, { recursive: true, force: true });
  });

  async function allPages(service: typeof fts, text: string): Promise<ChatSearchEntry[]> {
    const out: ChatSearchEntry[] = [];
    for (let page = 1; ; page += 1) {
      const got = await service.search('u1', { text, page });
      out.push(...got);
      if (got.length < 60) return out;
    }
  }

  it('pages deep into a common word in order of each chat\'s newest mention, without gaps or repeats', async () => {
    const word = /(^|[^\p{L}\p{N}])common([^\p{L}\p{N}]|$)/iu;
    const expected = [...messages.entries()]
      .filter(([id]) => Number(id.slice(1)) >= 20)
      .flatMap(([id, list]) => {
        const hit = Math.max(-1, ...list.filter((m) => word.test(m.content)).map((m) => m.r));
        if (hit >= 0) return [{ id, key: hit }];
        return word.test(titles.get(id)!) ? [{ id, key: Math.max(...list.map((m) => m.r)) - 0.5 }] : [];
      })
      .sort((a, b) => b.key - a.key)
      .map((e) => e.id);
    expect(expected.length).toBeGreaterThan(20 * 60);

    const page20 = await fts.search('u1', { text: 'common', page: 20 });
    expect(page20.map((c) => c.id)).toEqual(expected.slice(19 * 60, 20 * 60));
    expect(page20.every((c) => c.snippet === null || /common/i.test(c.snippet))).toBe(true);
    expect((await allPages(fts, 'common')).map((c) => c.id)).toEqual(expected);
    expect((await words.search('u1', { text: 'common', page: 20 })).map((c) => c.id)).toEqual(expected.slice(19 * 60, 20 * 60));
  });

  it.each([
    ['a common word, all pages', 'common'],
    ['accents and case ignored', 'cafe'],
    ['an accented word', 'Crème'],
    ['a hyphenated word as a phrase', 'e-mail'],
    ['a word after a hyphen', 'mail'],
    ['a prefix while typing', 'zeb'],
    ['a rare word', 'zebra'],
    ['two words in one message', 'common zebra'],
    ['a title word', 'ground'],
    ['title and message words', 'common ground'],
    ['a word with a tag', 'common tag:work'],
    ['a word within dates', 'cafe after:2027-01-01 before:2028-01-01'],
    ['no match', 'qqqqqq'],
  ])('%s: the same chats, order, snippets and highlights', async (_name, text) => {
    const viaFts = await allPages(fts, text);
    const viaIndex = await allPages(words, text);
    expect(viaIndex).toEqual(viaFts);
    if (text !== 'qqqqqq') expect(viaFts.length).toBeGreaterThan(0);
    expect(viaFts.some((c) => c.user_id !== 'u1')).toBe(false);
  });

  it('the word index follows new messages, renamed and deleted chats', async () => {
    const index = createChatSearchService({ repo: createChatSearchRepo(db, { useFts: false }) });
    expect(await index.search('u1', { text: 'xylophone', page: 1 })).toEqual([]);
    const nowMs = (BASE + 2000 * DAY) * 1000;
    await db('chat_messages').insert({ id: 'm-new', chat_id: 'c500', parent_id: null, role: 'user', content: 'a xylophone solo', model: null, status: 'complete', created_at: BASE, updated_at: BASE, seq: 9 });
    await db('chats').where({ id: 'c500' }).update({ activity_ms: nowMs });
    await db('chats').where({ id: 'c600' }).update({ title: 'Xylophone lessons' });
    const found = await index.search('u1', { text: 'xylophone', page: 1 });
    expect(found.map((c) => c.id)).toEqual(['c500', 'c600']);
    expect(found[0]!.snippet).toBe('a xylophone solo');
    expect(await index.search('u1', { text: 'xylophone', page: 1 })).toEqual(await fts.search('u1', { text: 'xylophone', page: 1 }));
    await db('chat_messages').where({ chat_id: 'c500' }).delete();
    await db('chats').where({ id: 'c500' }).delete();
    expect((await index.search('u1', { text: 'xylophone', page: 1 })).map((c) => c.id)).toEqual(['c600']);
  });
});
