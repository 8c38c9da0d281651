import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';

const fixture = (name: string): unknown[] => JSON.parse(readFileSync(path.join(__dirname, '../fixtures/imports', name), 'utf8')) as unknown[];

describe('chat library: search, folders, tags, share, export/import', () => {
  let server: TestServer;
  let admin: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  let pending: TestUser;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signupAdmin(server);
    alice = await buildUser(server, admin, 'user', 'Alice');
    bob = await buildUser(server, admin, 'user', 'Bob');
    pending = await buildUser(server, admin, 'pending', 'Pending');
  });
  afterAll(async () => {
    await server.close();
  });

  const as = (u: TestUser) => server.as(u.token);
  async function chatWith(u: TestUser, title: string, ...contents: string[]): Promise<string> {
    const id = (await as(u).post('/api/v1/chats/new', { title })).body.id as string;
    for (const [i, content] of contents.entries()) await as(u).post(`/api/v1/chats/${id}/messages`, { role: i % 2 === 0 ? 'user' : 'assistant', content });
    return id;
  }
  /** Runs `fn` with one default permission switched off. */
  async function without(area: 'chat' | 'workspace', leaf: string, fn: () => Promise<void>): Promise<void> {
    const defaults = (await as(admin).get('/api/v1/users/default/permissions')).body;
    const off = { ...defaults, [area]: { ...defaults[area], [leaf]: false } };
    expect((await as(admin).post('/api/v1/users/default/permissions', off)).status).toBe(200);
    try {
      await fn();
    } finally {
      await as(admin).post('/api/v1/users/default/permissions', defaults);
    }
  }

  describe('search', () => {
    it('finds words in message text and titles, with the matching passage highlighted, only in the caller’s chats', async () => {
      const soup = await chatWith(alice, 'Dinner ideas', 'What goes into a minestrone?', 'Beans, pasta, tomatoes and plenty of vegetables.');
      const title = await chatWith(alice, 'Minestrone history', 'Where does it come from?');
      await chatWith(bob, 'Bob minestrone', 'minestrone for bob');
      const res = await as(alice).get('/api/v1/chats/search?text=minestrone');
      expect(res.status).toBe(200);
      const ids = res.body.map((c: { id: string }) => c.id);
      expect(ids.sort()).toEqual([soup, title].sort());
      const hit = res.body.find((c: { id: string }) => c.id === soup);
      expect(hit.snippet).toContain('minestrone');
      const [start, end] = hit.highlights[0];
      expect(hit.snippet.slice(start, end).toLowerCase()).toBe('minestrone');
      expect(hit).toMatchObject({ user_id: alice.id, title: 'Dinner ideas', pinned: false, archived: false, folder_id: null, tags: [] });
    });

    it('matches every word, a prefix of the last one, and ignores accents and case', async () => {
      const id = await chatWith(alice, 'Café visit', 'The CRÈME brûlée was excellent');
      const ids = async (text: string) => (await as(alice).get(`/api/v1/chats/search?text=${encodeURIComponent(text)}`)).body.map((c: { id: string }) => c.id);
      expect(await ids('creme brul')).toContain(id);
      expect(await ids('creme pizza')).not.toContain(id);
      expect(await ids('cafe')).toContain(id);
    });

    it('filters by tag: and by dates, and refuses a bad date with 400', async () => {
      const tagged = await chatWith(alice, 'Tagged chat', 'quarterly numbers');
      await chatWith(alice, 'Untagged chat', 'quarterly numbers');
      expect((await as(alice).post(`/api/v1/chats/${tagged}/tags`, { name: 'Finance' })).body.tags).toEqual(['Finance']);
      const byTag = await as(alice).get('/api/v1/chats/search?text=tag:finance');
      expect(byTag.body.map((c: { id: string }) => c.id)).toEqual([tagged]);
      expect((await as(alice).get('/api/v1/chats/search?text=quarterly%20tag:finance')).body.map((c: { id: string }) => c.id)).toEqual([tagged]);
      expect((await as(alice).get('/api/v1/chats/search?text=tag:finance%20before:2000-01-01')).body).toEqual([]);
      expect((await as(alice).get('/api/v1/chats/search?text=tag:finance%20after:2000-01-01')).body).toHaveLength(1);
      const bad = await as(alice).get('/api/v1/chats/search?text=before:yesterday');
      expect(bad.status).toBe(400);
      expect(bad.body.detail).toContain('before:');
    });

    it("names the matching message of each hit, so opening it can show that message; null for a title match", async () => {
      const id = (await as(alice).post('/api/v1/chats/new', { title: 'Long thread' })).body.id as string;
      const ids: string[] = [];
      for (const content of ['first words', 'the zeppelin hangar question', 'later words']) ids.push((await as(alice).post(`/api/v1/chats/${id}/messages`, { role: 'user', content })).body.id);
      const hit = (await as(alice).get('/api/v1/chats/search?text=zeppelin')).body.find((c: { id: string }) => c.id === id);
      expect(hit).toMatchObject({ message_id: ids[1], snippet: 'the zeppelin hangar question' });
      const title = (await as(alice).get('/api/v1/chats/search?text=Long%20thread')).body.find((c: { id: string }) => c.id === id);
      expect(title.message_id).toBeNull();
    });

    it('falls back to a substring search for text without letters or digits', async () => {
      const id = await chatWith(alice, 'Operators', 'In C++ you write i++ to add one');
      const hits = (await as(alice).get('/api/v1/chats/search?text=%2B%2B')).body;
      expect(hits.map((c: { id: string }) => c.id)).toContain(id);
      const message = (await as(alice).get(`/api/v1/chats/${id}`)).body.messages[0];
      expect(hits.find((c: { id: string }) => c.id === id).message_id).toBe(message.id);
    });

    it('refuses strangers and pending accounts', async () => {
      expect((await server.anon.get('/api/v1/chats/search?text=x')).status).toBe(401);
      expect((await as(pending).get('/api/v1/chats/search?text=x')).status).toBe(403);
      expect((await as(alice).get('/api/v1/chats/search?page=0')).status).toBe(422);
    });
  });

  describe('tags, pins and archive', () => {
    it('adds and removes tags, lists them with counts, and only the owner may', async () => {
      const id = await chatWith(alice, 'Tags', 'x');
      await as(alice).post(`/api/v1/chats/${id}/tags`, { name: 'Work' });
      await as(alice).post(`/api/v1/chats/${id}/tags`, { name: 'work' });
      expect((await as(alice).get(`/api/v1/chats/${id}`)).body.tags).toEqual(['Work']);
      const other = await chatWith(alice, 'More tags', 'y');
      expect((await as(alice).post(`/api/v1/chats/${other}/tags`, { name: 'WORK' })).body.tags).toEqual(['Work']);
      const all = await as(alice).get('/api/v1/chats/all/tags');
      expect(all.body).toEqual(expect.arrayContaining([{ name: 'Work', count: 2 }]));
      expect((await as(alice).raw('DELETE', `/api/v1/chats/${other}/tags`, JSON.stringify({ name: 'work' }), { 'content-type': 'application/json' })).body.tags).toEqual([]);
      expect((await as(bob).post(`/api/v1/chats/${id}/tags`, { name: 'x' })).status).toBe(403);
      expect((await as(admin).post(`/api/v1/chats/${id}/tags`, { name: 'x' })).status).toBe(403);
      expect((await as(alice).post(`/api/v1/chats/${id}/tags`, { name: '' })).status).toBe(422);
      expect((await as(alice).raw('DELETE', `/api/v1/chats/${id}/tags`, JSON.stringify({ name: 'work' }), { 'content-type': 'application/json' })).body.tags).toEqual([]);
    });

    it('archives every chat at once', async () => {
      const user = await buildUser(server, admin);
      await chatWith(user, 'one');
      await chatWith(user, 'two');
      expect((await server.as(user.token).post('/api/v1/chats/archive/all')).body).toBe(true);
      expect((await server.as(user.token).get('/api/v1/chats')).body).toEqual([]);
      expect((await server.as(user.token).get('/api/v1/chats/archived')).body).toHaveLength(2);
    });
  });

  describe('folders', () => {
    it('creates nested folders, files chats in them, moves and renames them, and deletes a tree keeping its chats', async () => {
      const user = await buildUser(server, admin);
      const api = server.as(user.token);
      const work = (await api.post('/api/v1/folders/', { name: 'Work' })).body;
      expect(work).toMatchObject({ name: 'Work', parent_id: null, user_id: user.id, is_expanded: false });
      const reports = (await api.post('/api/v1/folders/', { name: 'Reports', parent_id: work.id })).body;
      expect(reports.parent_id).toBe(work.id);
      expect((await api.post('/api/v1/folders/', { name: 'work' })).status).toBe(400);

      const chat = await chatWith(user, 'Q3 report');
      expect((await api.post(`/api/v1/chats/${chat}/folder`, { folder_id: reports.id })).body.folder_id).toBe(reports.id);
      expect((await api.get('/api/v1/chats')).body).toEqual([]);
      expect((await api.get('/api/v1/chats?include_folders=true')).body[0].folder_id).toBe(reports.id);

      expect((await api.post(`/api/v1/folders/${work.id}/update`, { parent_id: reports.id })).status).toBe(400);
      expect((await api.post(`/api/v1/folders/${reports.id}/update`, { parent_id: null, name: 'Reports 2026', is_expanded: true })).body).toMatchObject({ parent_id: null, name: 'Reports 2026', is_expanded: true });
      expect((await api.post(`/api/v1/folders/${reports.id}/update`, { parent_id: work.id })).body.parent_id).toBe(work.id);
      expect((await api.get('/api/v1/folders/')).body).toHaveLength(2);

      expect((await api.delete(`/api/v1/folders/${work.id}`)).body).toBe(true);
      expect((await api.get('/api/v1/folders/')).body).toEqual([]);
      expect((await api.get(`/api/v1/chats/${chat}`)).body.folder_id).toBeNull();
    });

    it('keeps folders private: another user, even an admin, gets 403; unknown 404; a stranger’s folder cannot hold your chat', async () => {
      const folder = (await as(alice).post('/api/v1/folders/', { name: 'Private' })).body;
      expect((await as(bob).get(`/api/v1/folders/${folder.id}`)).status).toBe(403);
      expect((await as(admin).post(`/api/v1/folders/${folder.id}/update`, { name: 'x' })).status).toBe(403);
      expect((await as(bob).delete(`/api/v1/folders/${folder.id}`)).status).toBe(403);
      expect((await as(alice).get('/api/v1/folders/nope')).status).toBe(404);
      const bobChat = await chatWith(bob, 'bob');
      const filed = await as(bob).post(`/api/v1/chats/${bobChat}/folder`, { folder_id: folder.id });
      expect(filed.status).toBe(400);
      expect(filed.body.detail).toContain('folder_id');
      expect((await as(bob).post('/api/v1/chats/new', { title: 'x', folder_id: folder.id })).status).toBe(400);
      expect((await as(alice).post('/api/v1/folders/', { name: '' })).status).toBe(422);
      expect((await server.anon.get('/api/v1/folders/')).status).toBe(401);
    });
  });

  describe('share links', () => {
    it('shares a snapshot any signed-in colleague can open, names the owner, updates and revokes it', async () => {
      const id = await chatWith(alice, 'Shared plan', 'Step one', 'Do the thing');
      const shared = await as(alice).post(`/api/v1/chats/${id}/share`);
      expect(shared.status).toBe(200);
      const shareId = shared.body.share_id as string;
      expect(shareId).toEqual(expect.any(String));
      expect((await as(alice).get(`/api/v1/chats/${id}`)).body.share_id).toBe(shareId);

      const opened = await as(bob).get(`/api/v1/chats/share/${shareId}`);
      expect(opened.status).toBe(200);
      expect(opened.body).toMatchObject({ id: shareId, title: 'Shared plan', user_id: `shared-${id}`, chat_id: id });
      expect(opened.body.messages.map((m: { content: string }) => m.content)).toEqual(['Step one', 'Do the thing']);
      expect((await as(bob).get(`/api/v1/users/shared-${id}`)).body).toMatchObject({ name: 'Alice' });

      // A later message is not in the snapshot until the owner updates the share.
      await as(alice).post(`/api/v1/chats/${id}/messages`, { role: 'user', content: 'Step two' });
      expect((await as(bob).get(`/api/v1/chats/share/${shareId}`)).body.messages).toHaveLength(2);
      expect((await as(alice).post(`/api/v1/chats/${id}/share`)).body.share_id).toBe(shareId);
      expect((await as(bob).get(`/api/v1/chats/share/${shareId}`)).body.messages).toHaveLength(3);

      expect((await as(bob).post(`/api/v1/chats/${id}/share`)).status).toBe(403);
      expect((await as(bob).delete(`/api/v1/chats/${id}/share`)).status).toBe(403);
      expect((await server.anon.get(`/api/v1/chats/share/${shareId}`)).status).toBe(401);
      expect((await as(pending).get(`/api/v1/chats/share/${shareId}`)).status).toBe(403);

      expect((await as(alice).delete(`/api/v1/chats/${id}/share`)).body).toBe(true);
      expect((await as(bob).get(`/api/v1/chats/share/${shareId}`)).status).toBe(404);
      expect((await as(bob).get(`/api/v1/users/shared-${id}`)).status).toBe(404);
      expect((await as(alice).delete(`/api/v1/chats/${id}/share`)).status).toBe(404);
      expect((await as(alice).get(`/api/v1/chats/${id}`)).body.share_id).toBeNull();
    });

    it('refuses to share without chat.share (the admin still may)', async () => {
      const id = await chatWith(alice, 'No share', 'x');
      const adminChat = await chatWith(admin, 'Admin share', 'x');
      await without('chat', 'share', async () => {
        const refused = await as(alice).post(`/api/v1/chats/${id}/share`);
        expect(refused.status).toBe(403);
        expect((await as(admin).post(`/api/v1/chats/${adminChat}/share`)).status).toBe(200);
      });
    });
  });

  describe('export and import', () => {
    it('exports every branch, sources and files, and a round trip through import gives the same chat', async () => {
      const user = await buildUser(server, admin);
      const api = server.as(user.token);
      const id = await chatWith(user, 'Branchy', 'Question');
      const first = (await api.post(`/api/v1/chats/${id}/messages`, { role: 'assistant', content: 'Answer A' })).body;
      await api.post(`/api/v1/chats/${id}/messages/${first.id}`, { content: 'Answer B' });
      await api.post(`/api/v1/chats/${id}/tags`, { name: 'kept' });
      await api.post(`/api/v1/chats/${id}/pin`, { pinned: true });

      const one = await api.get(`/api/v1/chats/${id}/export`);
      expect(one.status).toBe(200);
      expect(one.body.parley_export).toBe(1);
      expect(Object.keys(one.body.history.messages)).toHaveLength(3);

      const all = await api.get('/api/v1/chats/all');
      expect(all.status).toBe(200);
      expect(all.body).toHaveLength(1);

      // Into the same account it is the same chat: skipped, never a second copy.
      const same = await api.post('/api/v1/chats/import', { chats: all.body });
      expect(same.body).toMatchObject({ imported: 0, skipped: 1, duplicates: 1 });
      expect(same.body.chats[0]).toMatchObject({ status: 'skipped', id, notes: ['Skipped: already in your chats'] });
      expect((await api.get('/api/v1/chats/all')).body).toHaveLength(1);

      const elsewhere = server.as((await buildUser(server, admin)).token);
      const report = await elsewhere.post('/api/v1/chats/import', { chats: all.body });
      expect(report.status).toBe(200);
      expect(report.body).toMatchObject({ imported: 1, skipped: 0, duplicates: 0 });
      expect(report.body.chats[0]).toMatchObject({ format: 'parley', status: 'imported', messages: 3, skipped_messages: 0 });
      const copy = (await elsewhere.get(`/api/v1/chats/${report.body.chats[0].id}`)).body;
      const original = (await api.get(`/api/v1/chats/${id}`)).body;
      expect(copy.title).toBe('Branchy');
      expect(copy.tags).toEqual(['kept']);
      expect(copy.pinned).toBe(true);
      expect(copy.messages.map((m: { content: string }) => m.content)).toEqual(original.messages.map((m: { content: string }) => m.content));
      expect(Object.values(copy.history.messages).map((m: any) => m.content).sort()).toEqual(['Answer A', 'Answer B', 'Question']);
      const question = Object.values(copy.history.messages).find((m: any) => m.content === 'Question') as { children_ids: string[] };
      expect(question.children_ids).toHaveLength(2);
    });

    it('an import puts chats back in their nested folders, creating the missing ones and reusing existing ones', async () => {
      const user = await buildUser(server, admin);
      const other = await buildUser(server, admin);
      const api = server.as(user.token);
      const work = (await api.post('/api/v1/folders/', { name: 'Work' })).body;
      const plans = (await api.post('/api/v1/folders/', { name: 'Plans', parent_id: work.id })).body;
      const id = await chatWith(user, 'Filed deep', 'Where am I?');
      await api.post(`/api/v1/chats/${id}/folder`, { folder_id: plans.id });

      const exported = (await api.get('/api/v1/chats/all')).body;
      expect(exported[0]).toMatchObject({ folder_name: 'Plans', folder_path: ['Work', 'Plans'] });

      const elsewhere = server.as(other.token);
      const report = (await elsewhere.post('/api/v1/chats/import', { chats: exported })).body;
      expect(report.imported).toBe(1);
      const folders = (await elsewhere.get('/api/v1/folders/')).body as Array<{ id: string; name: string; parent_id: string | null }>;
      const top = folders.find((f) => f.name === 'Work' && f.parent_id === null)!;
      const leaf = folders.find((f) => f.name === 'Plans' && f.parent_id === top.id)!;
      expect(leaf).toBeDefined();
      expect((await elsewhere.get(`/api/v1/chats/${report.chats[0].id}`)).body.folder_id).toBe(leaf.id);

      expect((await api.delete(`/api/v1/chats/${id}`)).status).toBe(200);
      const again = (await api.post('/api/v1/chats/import', { chats: exported })).body;
      expect(again.imported).toBe(1);
      expect((await api.get(`/api/v1/chats/${again.chats[0].id}`)).body.folder_id).toBe(plans.id);
      expect((await api.get('/api/v1/folders/')).body).toHaveLength(2);
    });

    it('exports Markdown of one chat and of all chats', async () => {
      const id = await chatWith(alice, 'Markdown me', 'Hello there', 'General Kenobi');
      const md = await as(alice).get(`/api/v1/chats/${id}/export?format=markdown`);
      expect(md.status).toBe(200);
      expect(md.headers.get('content-type')).toContain('text/markdown');
      expect(md.text).toContain('# Markdown me');
      expect(md.text).toContain('## User\n\nHello there');
      expect(md.text).toContain('## Assistant');
      expect((await as(alice).get('/api/v1/chats/all?format=markdown')).text).toContain('# Markdown me');
      expect((await as(alice).get(`/api/v1/chats/${id}/export?format=pdf`)).status).toBe(422);
    });

    it('imports an Open WebUI export with its branches, sources, tags and pin, and reports what it skipped', async () => {
      const report = await as(alice).post('/api/v1/chats/import', { chats: fixture('open-webui-export.json') });
      expect(report.status).toBe(200);
      expect(report.body).toMatchObject({ imported: 1, skipped: 1 });
      const [chat, broken] = report.body.chats;
      expect(chat).toMatchObject({ index: 0, format: 'open-webui', status: 'imported', messages: 5, title: 'Sourdough starter' });
      expect(broken).toMatchObject({ index: 1, status: 'skipped', id: null });
      expect(broken.notes[0]).toMatch(/Skipped/);
      const saved = (await as(alice).get(`/api/v1/chats/${chat.id}`)).body;
      expect(saved.messages.map((m: { content: string }) => m.content)).toEqual([
        'How do I feed a sourdough starter?',
        'Feed it daily with flour and water at a 1:1:1 ratio.',
        'And if it smells like acetone?',
        'It is hungry: feed it more often.',
      ]);
      expect(saved.messages[1].sources[0].source.name).toBe('Baking notes');
      expect(saved.messages[1].model).toBe('llama3.1:8b');
      expect(saved).toMatchObject({ pinned: true, tags: ['baking'], created_at: 1717000000 });
    });

    it('keeps the case of imported tags, matching tags the user has whatever their case, without renaming them', async () => {
      const user = await buildUser(server, admin);
      const api = server.as(user.token);
      const mine = await chatWith(user, 'Mine', 'x');
      await api.post(`/api/v1/chats/${mine}/tags`, { name: 'Baking' });
      const entry = (id: string, tags: unknown[]) => ({
        id,
        title: `Chat ${id}`,
        meta: { tags },
        chat: { title: `Chat ${id}`, history: { currentId: 'm1', messages: { m1: { id: 'm1', parentId: null, role: 'user', content: 'Hi', timestamp: 1717000000 } } } },
      });
      const report = await api.post('/api/v1/chats/import', { chats: [entry('owui-1', ['BAKING', 'Sourdough', 'sourdough', { name: 'Project X' }]), entry('owui-2', ['project x'])] });
      expect(report.body).toMatchObject({ imported: 2, skipped: 0 });
      expect((await api.get(`/api/v1/chats/${report.body.chats[0].id}`)).body.tags).toEqual(['Baking', 'Sourdough', 'Project X']);
      expect((await api.get(`/api/v1/chats/${report.body.chats[1].id}`)).body.tags).toEqual(['Project X']);
      expect((await api.get(`/api/v1/chats/${mine}`)).body.tags).toEqual(['Baking']);
      const all = (await api.get('/api/v1/chats/all/tags')).body;
      expect(all).toEqual(expect.arrayContaining([{ name: 'Baking', count: 2 }, { name: 'Project X', count: 2 }, { name: 'Sourdough', count: 1 }]));
      expect((await api.get('/api/v1/chats/search?text=tag:sourdough')).body.map((c: { id: string }) => c.id)).toEqual([report.body.chats[0].id]);
    });

    it('a second import of the same file (Open WebUI, ChatGPT, Parley) duplicates no chat and says how many were skipped', async () => {
      const user = await buildUser(server, admin);
      const api = server.as(user.token);
      const files = [...fixture('open-webui-export.json'), ...fixture('chatgpt-conversations.json')];
      const first = (await api.post('/api/v1/chats/import', { chats: files })).body;
      expect(first).toMatchObject({ imported: 2, skipped: 1, duplicates: 0 });
      const again = (await api.post('/api/v1/chats/import', { chats: files })).body;
      expect(again).toMatchObject({ imported: 0, skipped: 3, duplicates: 2 });
      expect(again.chats.filter((c: { status: string; id: string | null }) => c.id !== null).map((c: { id: string }) => c.id)).toEqual(first.chats.filter((c: { id: string | null }) => c.id !== null).map((c: { id: string }) => c.id));
      expect((await api.get('/api/v1/chats/all')).body).toHaveLength(2);

      // Its own export of those imports is recognised too, and a chat twice in one file is imported once.
      const exported = (await api.get('/api/v1/chats/all')).body;
      expect((await api.post('/api/v1/chats/import', { chats: exported })).body).toMatchObject({ imported: 0, duplicates: 2 });
      const twice = (await server.as((await buildUser(server, admin)).token).post('/api/v1/chats/import', { chats: [exported[0], exported[0]] })).body;
      expect(twice).toMatchObject({ imported: 1, skipped: 1, duplicates: 1 });

      // Someone else importing the same file gets their own copies.
      const bobReport = (await as(bob).post('/api/v1/chats/import', { chats: files })).body;
      expect(bobReport).toMatchObject({ imported: 2, duplicates: 0 });
      expect(bobReport.chats[0].id).not.toBe(first.chats[0].id);
      expect((await as(bob).get(`/api/v1/chats/${first.chats[0].id}`)).status).toBe(403);
    });

    it('imports ChatGPT conversations.json, skipping tool calls and image-only messages with a note', async () => {
      const report = await as(alice).post('/api/v1/chats/import', { chats: fixture('chatgpt-conversations.json') });
      expect(report.status).toBe(200);
      const [chat] = report.body.chats;
      expect(chat).toMatchObject({ format: 'chatgpt', status: 'imported', title: 'Packing list', messages: 3, skipped_messages: 3 });
      expect(chat.notes.join(' ')).toMatch(/tool/);
      expect(chat.notes.join(' ')).toMatch(/image/);
      const saved = (await as(alice).get(`/api/v1/chats/${chat.id}`)).body;
      expect(saved.messages.map((m: { role: string; content: string }) => `${m.role}: ${m.content}`)).toEqual([
        'user: What should I pack for a hiking weekend?',
        'assistant: Boots, rain jacket, water filter and a headlamp.',
        'assistant: That tent looks fine for two people.',
      ]);
      expect(saved.messages[1].model).toBe('gpt-4o');
      expect(saved.created_at).toBe(1716000000);
    });

    it('refuses an import nested 200,000 deep with 400 before parsing it, and keeps serving', async () => {
      const deep = `{"chats":[${'['.repeat(200_000)}${']'.repeat(200_000)}]}`;
      const res = await as(alice).raw('POST', '/api/v1/chats/import', deep, { 'content-type': 'application/json' });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'JSON_TOO_DEEP', detail: expect.stringMatching(/deeper than 200/) });
      // Nesting a real export never reaches: still read.
      const nested = await as(alice).post('/api/v1/chats/import', { chats: [JSON.parse(`{"title":"Deep","extra":${'['.repeat(150)}${']'.repeat(150)}}`)] });
      expect(nested.status).toBe(200);
      expect((await server.anon.get('/health')).status).toBe(200);
    });

    it('an import with impossible times (far future, negative) gets plausible ones', async () => {
      const before = Math.floor(Date.now() / 1000);
      const chat = {
        parley_export: 1,
        title: 'Time travel',
        created_at: 32503680000000,
        updated_at: 1e300,
        history: {
          current_id: 'b',
          messages: {
            a: { id: 'a', parent_id: null, role: 'user', content: 'when?', created_at: -5 },
            b: { id: 'b', parent_id: 'a', role: 'assistant', content: 'later', created_at: 9_999_999_999 },
          },
        },
      };
      const report = await as(alice).post('/api/v1/chats/import', { chats: [chat] });
      expect(report.status).toBe(200);
      const id = report.body.chats[0].id as string;
      expect(id).toBeTruthy();
      const saved = (await as(alice).get(`/api/v1/chats/${id}`)).body;
      const after = Math.floor(Date.now() / 1000) + 1;
      for (const at of [saved.created_at, saved.updated_at, ...saved.messages.map((m: { created_at: number }) => m.created_at)]) {
        expect(at).toBeGreaterThanOrEqual(before);
        expect(at).toBeLessThanOrEqual(after);
      }
    });

    it('refuses export and import without chat.export, and bad bodies with 422', async () => {
      const id = await chatWith(alice, 'Locked', 'x');
      await without('chat', 'export', async () => {
        expect((await as(alice).get('/api/v1/chats/all')).status).toBe(403);
        expect((await as(alice).get(`/api/v1/chats/${id}/export`)).status).toBe(403);
        expect((await as(alice).post('/api/v1/chats/import', { nope: 1 })).status).toBe(403);
        expect((await as(admin).get('/api/v1/chats/all')).status).toBe(200);
      });
      expect((await as(bob).get(`/api/v1/chats/${id}/export`)).status).toBe(403);
      expect((await as(admin).get(`/api/v1/chats/${id}/export`)).status).toBe(403);
      expect((await as(alice).post('/api/v1/chats/import', { chats: [] })).status).toBe(422);
      expect((await as(alice).post('/api/v1/chats/import', { chats: 'x' })).status).toBe(422);
      const junk = await as(alice).post('/api/v1/chats/import', { chats: [42, null, { mapping: { a: 5 } }] });
      expect(junk.status).toBe(200);
      expect(junk.body).toMatchObject({ imported: 0, skipped: 3 });
    });
  });
});
