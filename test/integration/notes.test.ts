import { io, type Socket } from 'socket.io-client';
import yauzl from 'yauzl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';

const N = '/api/v1/notes';
const md = (text: string) => ({ content: { md: text } });

/** The names and texts of a ZIP's entries. */
function unzip(bytes: Buffer): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error);
      const out: Record<string, string> = {};
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          const parts: Buffer[] = [];
          stream.on('data', (c: Buffer) => parts.push(c));
          stream.on('end', () => {
            out[entry.fileName] = Buffer.concat(parts).toString('utf8');
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(out));
      zip.readEntry();
    });
  });
}

describe('notes', () => {
  let server: TestServer;
  let admin: TestUser;
  let owner: TestUser;
  let reader: TestUser;
  let writer: TestUser;
  let stranger: TestUser;
  let pending: TestUser;
  const sockets: Socket[] = [];
  const as = (u: TestUser) => server.as(u.token);

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signupAdmin(server);
    owner = await buildUser(server, admin, 'user', 'Olivia Owner');
    reader = await buildUser(server, admin, 'user', 'Rui Reader');
    writer = await buildUser(server, admin, 'user', 'Wen Writer');
    stranger = await buildUser(server, admin, 'user', 'Sam Stranger');
    pending = await buildUser(server, admin, 'pending', 'Pat Pending');
  });
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await server.close();
  });

  /** A note of the owner's shared with the reader (read, through a group) and the writer (write). */
  async function sharedNote(title = 'Team plan', text = 'Ship the release on Friday.') {
    const group = (await as(admin).post('/api/v1/groups/create', { name: `Readers ${Math.random()}` })).body;
    await as(admin).post(`/api/v1/groups/id/${group.id}/users/add`, { user_ids: [reader.id] });
    const created = await as(owner).post(`${N}/create`, { title, data: md(text), access_control: { read: { group_ids: [group.id] }, write: { user_ids: [writer.id] } } });
    expect(created.status).toBe(200);
    return created.body;
  }

  it('writes a note that only its owner (and admins) read while private, with write_access and a version', async () => {
    const created = await as(owner).post(`${N}/create`, { title: 'Groceries', data: md('- oat milk\n- lemons') });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ title: 'Groceries', user_id: owner.id, access_control: {}, version: 1, write_access: true, data: { content: { md: '- oat milk\n- lemons' } } });
    const id = created.body.id;
    expect((await as(owner).get(`${N}/${id}`)).body).toMatchObject({ id, write_access: true, user: { id: owner.id, name: 'Olivia Owner' } });
    expect((await as(stranger).get(`${N}/${id}`)).status).toBe(404);
    expect((await as(admin).get(`${N}/${id}`)).body.write_access).toBe(true);
    expect((await as(owner).get(`${N}/`)).body.map((n: { id: string }) => n.id)).toContain(id);
    expect((await as(stranger).get(`${N}/`)).body.map((n: { id: string }) => n.id)).not.toContain(id);
  });

  it('follows the access matrix on every route: owner, reader, writer, stranger, admin', async () => {
    const note = await sharedNote();
    const id = note.id;
    const expectations: Array<[TestUser, { read: number; update: number; remove: number; listed: boolean; write: boolean | null }]> = [
      [owner, { read: 200, update: 200, remove: 200, listed: true, write: true }],
      [reader, { read: 200, update: 403, remove: 403, listed: true, write: false }],
      [writer, { read: 200, update: 200, remove: 200, listed: true, write: true }],
      [stranger, { read: 404, update: 404, remove: 404, listed: false, write: null }],
      [admin, { read: 200, update: 200, remove: 200, listed: true, write: true }],
    ];
    for (const [user, want] of expectations) {
      const fresh = await sharedNote(`Plan for ${user.name}`, 'Words to search: marmalade');
      const read = await as(user).get(`${N}/${fresh.id}`);
      expect(read.status, `${user.name} reads`).toBe(want.read);
      if (want.write !== null) expect(read.body.write_access, `${user.name} write_access`).toBe(want.write);
      expect((await as(user).get(`${N}/`)).body.some((n: { id: string }) => n.id === fresh.id), `${user.name} lists`).toBe(want.listed);
      const found = (await as(user).get(`${N}/search?query=marmalade`)).body.items.some((n: { id: string }) => n.id === fresh.id);
      expect(found, `${user.name} finds`).toBe(want.listed);
      const exported = await as(user).get(`${N}/${fresh.id}/export`);
      expect(exported.status, `${user.name} exports`).toBe(want.read);
      expect((await as(user).post(`${N}/${fresh.id}/update`, { title: `Edited by ${user.name}` })).status, `${user.name} updates`).toBe(want.update);
      expect((await as(user).delete(`${N}/${fresh.id}/delete`)).status, `${user.name} deletes`).toBe(want.remove);
    }
    expect((await as(owner).get(`${N}/${id}`)).status).toBe(200);
  });

  it('keeps who may read with the owner: a writer changes the text but not the access control', async () => {
    const note = await sharedNote();
    const edited = await as(writer).post(`${N}/${note.id}/update`, { data: md('New plan'), access_control: null });
    expect(edited.status).toBe(200);
    expect(edited.body.access_control).toEqual(note.access_control);
    expect((await as(stranger).get(`${N}/${note.id}`)).status).toBe(404);
  });

  it('makes a note public only with sharing.public_notes (else it stays private); public notes are read by all', async () => {
    const asked = await as(owner).post(`${N}/create`, { title: 'For everyone?', data: md('hello'), access_control: null });
    expect(asked.body.access_control).toEqual({});
    expect((await as(stranger).get(`${N}/${asked.body.id}`)).status).toBe(404);

    const group = (await as(admin).post('/api/v1/groups/create', { name: 'Publishers', permissions: { sharing: { public_notes: true } } })).body;
    await as(admin).post(`/api/v1/groups/id/${group.id}/users/add`, { user_ids: [owner.id] });
    const open = await as(owner).post(`${N}/create`, { title: 'Lunch menu', data: md('Soup of the day: leek'), access_control: null });
    expect(open.body.access_control).toBeNull();
    const seen = await as(stranger).get(`${N}/${open.body.id}`);
    expect(seen.status).toBe(200);
    expect(seen.body.write_access).toBe(false);
    expect((await as(stranger).post(`${N}/${open.body.id}/update`, { title: 'Mine' })).status).toBe(403);
    expect((await as(stranger).get(`${N}/search?query=leek`)).body.items.map((n: { id: string }) => n.id)).toContain(open.body.id);
  });

  it('refuses a stale save with 409 and the newer note, and keeps both versions apart', async () => {
    const note = (await as(owner).post(`${N}/create`, { title: 'Minutes', data: md('Line one') })).body;
    const first = await as(owner).post(`${N}/${note.id}/update`, { data: md('Line one\nLine two (owner)'), version: 1 });
    expect(first.status).toBe(200);
    expect(first.body.version).toBe(2);
    const stale = await as(owner).post(`${N}/${note.id}/update`, { data: md('Line one\nLine two (other tab)'), version: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: 'NOTE_CHANGED', detail: expect.stringContaining('version'), note: { id: note.id, version: 2, data: { content: { md: 'Line one\nLine two (owner)' } } } });
    expect((await as(owner).get(`${N}/${note.id}`)).body.data.content.md).toBe('Line one\nLine two (owner)');
    // Saved again from the newer version (a merge, or "keep mine"), it goes through.
    const merged = await as(owner).post(`${N}/${note.id}/update`, { data: md('Line one\nLine two (owner)\nLine two (other tab)'), version: 2 });
    expect(merged.body.version).toBe(3);
    // Two saves from the same version at once: exactly one wins.
    const race = await Promise.all([1, 2].map((n) => as(owner).post(`${N}/${note.id}/update`, { data: md(`race ${n}`), version: 3 })));
    expect(race.map((r) => r.status).sort()).toEqual([200, 409]);
  });

  it('answers bad input with 422 naming the field, and refuses strangers, pending accounts and signed-out callers', async () => {
    const bad = await as(owner).post(`${N}/create`, { title: 42 });
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toContain('title');
    expect((await as(owner).post(`${N}/create`, { title: 'x', data: { content: { md: 'a'.repeat(1_000_001) } } })).status).toBe(422);
    const note = (await as(owner).post(`${N}/create`, { title: 'Valid' })).body;
    expect((await as(owner).post(`${N}/${note.id}/update`, { version: 0 })).status).toBe(422);
    expect((await as(owner).post(`${N}/${note.id}/update`, { version: 'two' })).status).toBe(422);
    // A note the caller cannot see is 404 before its body is read.
    expect((await as(stranger).post(`${N}/${note.id}/update`, { version: 'two' })).status).toBe(404);
    expect((await as(owner).get(`${N}/search?page=0`)).status).toBe(422);
    expect((await as(owner).get(`${N}/no-such-note`)).status).toBe(404);
    expect((await server.anon.get(`${N}/`)).status).toBe(401);
    expect((await as(pending).get(`${N}/`)).status).toBe(403);
    const forged = await server.as('not-a-token').get(`${N}/`);
    expect(forged.status).toBe(401);
  });

  it('honours features.notes and ENABLE_NOTES on every route', async () => {
    const note = (await as(owner).post(`${N}/create`, { title: 'Still mine', data: md('kept') })).body;
    const defaults = (await as(admin).get('/api/v1/users/default/permissions')).body;
    expect(defaults.features.notes).toBe(true);
    await as(admin).post('/api/v1/users/default/permissions', { ...defaults, features: { ...defaults.features, notes: false } });
    try {
      for (const call of [as(owner).get(`${N}/`), as(owner).get(`${N}/${note.id}`), as(owner).post(`${N}/create`, { title: 'x' }), as(owner).post(`${N}/${note.id}/update`, { nonsense: 1 })]) {
        const refused = await call;
        expect(refused.status).toBe(403);
        expect(refused.body.code).toBe('NOTES_FORBIDDEN');
      }
      expect((await as(admin).get(`${N}/${note.id}`)).status).toBe(200);
      expect((await as(owner).get('/api/v1/users/permissions')).body.features.notes).toBe(false);
    } finally {
      await as(admin).post('/api/v1/users/default/permissions', defaults);
    }
    await as(admin).post('/api/v1/auths/admin/config', { ENABLE_NOTES: false });
    try {
      expect((await server.anon.get('/api/config')).body.features.enable_notes).toBe(false);
      for (const user of [owner, admin]) {
        const refused = await as(user).get(`${N}/${note.id}`);
        expect(refused.status).toBe(403);
        expect(refused.body.code).toBe('NOTES_DISABLED');
      }
      const attached = await as(owner).post('/api/chat/completions', { model: 'none', messages: [{ role: 'user', content: 'hi' }], files: [{ type: 'note', id: note.id }] });
      expect([401, 403, 404]).toContain(attached.status);
    } finally {
      await as(admin).post('/api/v1/auths/admin/config', { ENABLE_NOTES: true });
    }
    expect((await server.anon.get('/api/config')).body.features.enable_notes).toBe(true);
  });

  it('searches in each note’s language and orders by relevance, paging by 60', async () => {
    const user = await buildUser(server, admin, 'user', 'Searcher');
    await as(user).post(`${N}/create`, { title: 'Rezepte', data: md('Die Kinder haben die Häuser am Fluss gemalt und danach Kuchen gebacken.') });
    await as(user).post(`${N}/create`, { title: 'Cuisine', data: md('Les enfants ont mangé des pommes et des poires dans le jardin hier soir.') });
    await as(user).post(`${N}/create`, { title: 'Garden', data: md('Children planted apple trees in the garden.') });
    // German stemming: "Haus" meets "Häuser"; French: "enfant" meets "enfants".
    expect((await as(user).get(`${N}/search?query=${encodeURIComponent('Häuser')}`)).body.items.map((n: { title: string }) => n.title)).toEqual(['Rezepte']);
    expect((await as(user).get(`${N}/search?query=enfant`)).body.items.map((n: { title: string }) => n.title)).toEqual(['Cuisine']);
    expect((await as(user).get(`${N}/search?query=children+apple`)).body.items.map((n: { title: string }) => n.title)).toEqual(['Garden']);
    const none = await as(user).get(`${N}/search?query=zzzqqq`);
    expect(none.body).toEqual({ items: [], total: 0 });
    for (let i = 0; i < 62; i += 1) await as(user).post(`${N}/create`, { title: `Bulk ${i}`, data: md('bulk page filler') });
    const page1 = await as(user).get(`${N}/search?query=filler`);
    expect(page1.body.total).toBe(62);
    expect(page1.body.items).toHaveLength(60);
    expect((await as(user).get(`${N}/search?query=filler&page=2`)).body.items).toHaveLength(2);
    // 65 of theirs and the public note of an earlier test: 66, so 6 on the second page.
    const all = (await as(user).get(`${N}/`)).body.length;
    expect((await as(user).get(`${N}/?page=2`)).body).toHaveLength(all - 60);
    const byName = await as(user).get(`${N}/search?order_by=name&direction=asc`);
    expect(byName.body.items[0].title).toBe('Bulk 0');
  });

  it('exports a note as Markdown and the caller’s own notes as a ZIP of Markdown files', async () => {
    const user = await buildUser(server, admin, 'user', 'Exporter');
    const note = (await as(user).post(`${N}/create`, { title: 'Trip: Lyon / Paris', data: md('Train at *9:12*.') })).body;
    await as(user).post(`${N}/create`, { title: 'Trip: Lyon / Paris', data: md('Second one') });
    const one = await as(user).get(`${N}/${note.id}/export`);
    expect(one.headers.get('content-type')).toContain('text/markdown');
    expect(one.headers.get('content-disposition')).toContain('attachment');
    expect(one.text).toBe('# Trip: Lyon / Paris\n\nTrain at *9:12*.\n');
    const res = await fetch(`${server.url}${N}/export`, { headers: { authorization: `Bearer ${user.token}` } });
    expect(res.headers.get('content-type')).toBe('application/zip');
    const entries = await unzip(Buffer.from(await res.arrayBuffer()));
    expect(Object.keys(entries).sort()).toEqual(['Trip_ Lyon _ Paris (2).md', 'Trip_ Lyon _ Paris.md']);
    expect(Object.values(entries).join('')).toContain('Train at *9:12*.');
  });

  it('gives an attached note’s text to the model like an attached file, and refuses notes the caller cannot read', async () => {
    const { startFakeOpenAI } = await import('../fixtures/fake-openai');
    const openai = await startFakeOpenAI({ models: ['gpt-notes'] });
    try {
      await as(admin).post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: [''], COMPAT_API_CONFIGS: {} });
      const note = await sharedNote('Packing list', 'Passport, charger, umbrella.');
      const ask = (user: TestUser) => as(user).post('/api/chat/completions', { model: 'gpt-notes', messages: [{ role: 'user', content: 'What should I pack?' }], files: [{ type: 'note', id: note.id }] });
      const answered = await ask(reader);
      expect(answered.status).toBe(200);
      const system = String(openai.lastChat()?.body.messages?.find((m: { role?: string }) => m.role === 'system')?.content ?? '');
      expect(system).toContain('Passport, charger, umbrella.');
      expect(system).toContain('name="Packing list"');
      expect(answered.body.sources[0].source).toMatchObject({ id: note.id, name: 'Packing list', type: 'note' });
      const before = openai.chats().length;
      expect((await ask(stranger)).status).toBe(404);
      expect(openai.chats().length).toBe(before);
    } finally {
      await openai.close();
    }
  });

  describe('live saves over socket.io', () => {
    function connect(user: TestUser): Promise<Socket> {
      const socket = io(server.url, { transports: ['websocket'], reconnection: false, forceNew: true, auth: { token: user.token } });
      sockets.push(socket);
      return new Promise((resolve, reject) => {
        socket.once('connect', () => resolve(socket));
        socket.once('connect_error', reject);
      });
    }
    const subscribe = (socket: Socket, topic: string) => socket.emitWithAck('subscribe', { topic }) as Promise<{ ok: boolean; detail?: string }>;

    it('sends a save to the note’s readers as it happens, and refuses followers who may not read it', async () => {
      const note = await sharedNote('Live', 'first');
      const readerSocket = await connect(reader);
      const strangerSocket = await connect(stranger);
      expect(await subscribe(readerSocket, `note:${note.id}`)).toEqual({ ok: true });
      expect(await subscribe(strangerSocket, `note:${note.id}`)).toEqual({ ok: false, detail: 'Not allowed' });
      expect(await subscribe(strangerSocket, 'chat:abc')).toEqual({ ok: false, detail: 'Unknown topic' });
      const strangerGot: unknown[] = [];
      strangerSocket.on('note-events', (e) => strangerGot.push(e));
      const received = new Promise<any>((resolve) => readerSocket.once('note-events', resolve));
      await as(writer).post(`${N}/${note.id}/update`, { data: md('second'), version: 1 });
      const event = await received;
      expect(event).toMatchObject({ id: note.id, version: 2, data: { content: { md: 'second' } } });
      expect(event.write_access).toBeUndefined();

      // Losing access stops the events at once: the next save goes to those who may still read.
      await as(owner).post(`${N}/${note.id}/update`, { access_control: {} });
      const after: unknown[] = [];
      readerSocket.on('note-events', (e) => after.push(e));
      await as(owner).post(`${N}/${note.id}/update`, { data: md('third') });
      await new Promise((r) => setTimeout(r, 300));
      expect(after).toEqual([]);
      expect(strangerGot).toEqual([]);
      expect(await subscribe(readerSocket, `note:${note.id}`)).toMatchObject({ ok: false });
    });

    it('tells followers when the note is deleted', async () => {
      const note = await sharedNote('Short-lived', 'soon gone');
      const socket = await connect(reader);
      expect(await subscribe(socket, `note:${note.id}`)).toEqual({ ok: true });
      const gone = new Promise<any>((resolve) => socket.once('note-events', resolve));
      await as(owner).delete(`${N}/${note.id}/delete`);
      expect(await gone).toEqual({ id: note.id, deleted: true });
    });
  });
});
