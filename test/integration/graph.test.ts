import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';
import { addAndWait, createBase, query, uploadFile, waitForFiles } from './knowledge-helpers';
import { LINKED_DOCS, longReport, pageData, readEvents, waitForGraph } from './graph-helpers';

describe('knowledge graph', () => {
  let server: TestServer;
  let admin: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  let linked: string;
  const fileIds: Record<string, string> = {};

  /** A base of long reports (≈ 25 chunks per 55 paragraphs), for builds that take several steps. */
  async function bigBase(name: string, files = 3, paragraphs = 55): Promise<string> {
    const id = await createBase(server, alice, name);
    for (let i = 0; i < files; i += 1) {
      const file = await uploadFile(server, alice, `report-${i}.txt`, longReport(i + 1, paragraphs));
      await server.as(alice.token).post(`/api/knowledge/${id}/file/add`, { file_id: file });
    }
    await waitForFiles(server, alice, id, 60_000);
    return id;
  }

  async function tableCount(table: 'graph_entities' | 'graph_chunks', knowledgeId: string): Promise<number> {
    const row = await server.services.db(table).where({ knowledge_id: knowledgeId }).count<{ n: number }[]>('* as n');
    return Number(row[0]!.n);
  }

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signupAdmin(server);
    alice = await buildUser(server, admin);
    bob = await buildUser(server, admin);
    linked = await createBase(server, alice, 'Programmes');
    for (const [name, text] of Object.entries(LINKED_DOCS)) {
      fileIds[name] = await uploadFile(server, alice, name, text);
      expect((await addAndWait(server, alice, linked, fileIds[name]!)).status).toBe('completed');
    }
  });
  afterAll(async () => {
    await server.close();
  });

  it('finds both documents of a question joined by a shared person once the graph is ready, where plain hybrid search finds one', async () => {
    const question = 'principal investigator of Project Falcon';
    const plain = await query(server, alice, [linked], question, { k: 2, relevance_threshold: 0 });
    const plainFiles = plain.metadatas.map((m) => m.file_id);
    expect(plainFiles).toContain(fileIds['falcon.txt']);
    expect(plainFiles).not.toContain(fileIds['holm.txt']);

    const toggled = await server.as(alice.token).post(`/api/knowledge/${linked}/graph/toggle`, { enabled: true });
    expect(toggled.status).toBe(200);
    expect(toggled.body).toMatchObject({ status: 'building' });
    expect(typeof toggled.body.message).toBe('string');
    const ready = await waitForGraph(server, alice, linked);
    expect(ready).toMatchObject({ status: 'ready', progress: 100 });
    expect(ready.entities).toBeGreaterThanOrEqual(5);
    expect(ready.relations).toBeGreaterThan(0);

    const aware = await query(server, alice, [linked], question, { k: 2, relevance_threshold: 0 });
    expect(aware.metadatas.map((m) => m.file_id).sort()).toEqual([fileIds['falcon.txt'], fileIds['holm.txt']].sort());
    expect(aware.documents.join(' ')).toMatch(/Aurora Building/);
    // holm.txt was not among the hybrid candidates at all: the graph brought it in.
    expect(aware.metadatas[1]!.via).toBe('knowledge-graph');
    // The linked document ranks below the one that names the project.
    expect(aware.metadatas[0]!.file_id).toBe(fileIds['falcon.txt']);

    // Turning it on again changes nothing; the /api/v1 path works too.
    const again = await server.as(alice.token).post(`/api/v1/knowledge/${linked}/graph/toggle`, { enabled: true });
    expect(again.body.status).toBe('ready');
  });

  it('shows the graph as a self-contained page with search, entities and their source chunks', async () => {
    await waitForGraph(server, alice, linked, (s) => s.status === 'ready');
    const res = await fetch(`${server.url}/api/v1/knowledge/${linked}/graph/visualize`, { headers: { authorization: `Bearer ${alice.token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    const csp = res.headers.get('content-security-policy')!;
    const nonce = /'nonce-([^']+)'/.exec(csp)![1]!;
    expect(csp).toMatch(/default-src 'none'/);
    const html = await res.text();
    // Nothing is fetched: no external scripts, styles or images; every script carries the nonce.
    expect(/<script[^>]+src=|<link[^>]+href=|<img[^>]+src=/.test(html)).toBe(false);
    const scripts = [...html.matchAll(/<script([^>]*)>/g)].map((m) => m[1]!);
    for (const attrs of scripts) expect(attrs.includes(`nonce="${nonce}"`) || attrs.includes('type="application/json"')).toBe(true);
    expect(html).toContain('force-graph');
    expect(html).toContain('id="search"');
    const data = pageData(html);
    const holm = data.nodes.find((n) => n.name === 'Ingrid Holm')!;
    expect(holm).toMatchObject({ type: 'person' });
    expect(holm.mentions).toBeGreaterThanOrEqual(2);
    const sources = holm.chunks.map((c) => data.chunks[String(c)]!.file_id).sort();
    expect(sources).toEqual([fileIds['falcon.txt'], fileIds['holm.txt']].sort());
    expect(data.links.some((l) => l.source === holm.id || l.target === holm.id)).toBe(true);
  });

  it('streams status events authenticated by the token query parameter, progress never going down and ending ready at 100', async () => {
    const id = await bigBase('Surveys');
    expect((await server.as(alice.token).post(`/api/knowledge/${id}/graph/toggle`, { enabled: true })).body.status).toBe('building');
    const res = await fetch(`${server.url}/api/v1/knowledge/${id}/graph/status?stream=true&token=${encodeURIComponent(alice.token)}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const events = await readEvents(res);
    expect(events.length).toBeGreaterThanOrEqual(2);
    const progress = events.map((e) => e.progress as number);
    for (let i = 1; i < progress.length; i += 1) expect(progress[i]).toBeGreaterThanOrEqual(progress[i - 1]!);
    expect(events.slice(0, -1).every((e) => e.status === 'building' && e.progress < 100)).toBe(true);
    expect(events.at(-1)).toMatchObject({ status: 'ready', progress: 100 });
    expect(events.at(-1)!.entities).toBeGreaterThan(10);

    // A finished graph answers one event and ends; the JSON form works without stream.
    const done = await readEvents(await fetch(`${server.url}/api/knowledge/${id}/graph/status?stream=true&token=${encodeURIComponent(alice.token)}`));
    expect(done).toEqual([expect.objectContaining({ status: 'ready', progress: 100 })]);
    expect((await server.as(alice.token).get(`/api/knowledge/${id}/graph/status?stream=false`)).body).toMatchObject({ status: 'ready', progress: 100 });

    // A bad token, or none, is refused before any stream starts.
    expect((await fetch(`${server.url}/api/v1/knowledge/${id}/graph/status?stream=true&token=nonsense`)).status).toBe(401);
    expect((await fetch(`${server.url}/api/v1/knowledge/${id}/graph/status?stream=true`)).status).toBe(401);
  }, 60_000);

  it('stops a running build when turned off and removes everything it stored', async () => {
    // Big enough (≈ 400 chunks) that the build is still running when it is turned off.
    const id = await bigBase('Stopped', 4, 200);
    await server.as(alice.token).post(`/api/knowledge/${id}/graph/toggle`, { enabled: true });
    const midway = await waitForGraph(server, alice, id, (s) => s.status !== 'building' || s.progress > 0);
    expect(midway.status).toBe('building');
    expect(midway.progress).toBeLessThan(100);
    expect(await tableCount('graph_chunks', id)).toBeGreaterThan(0);

    const off = await server.as(alice.token).post(`/api/knowledge/${id}/graph/toggle`, { enabled: false });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ status: 'disabled' });
    expect(server.services.graph.builder.isRunning(id)).toBe(false);
    await new Promise((r) => setTimeout(r, 300));
    expect((await server.as(alice.token).get(`/api/v1/knowledge/${id}/graph/status`)).body).toMatchObject({ status: 'disabled', progress: 0, entities: 0, relations: 0 });
    expect(await tableCount('graph_entities', id)).toBe(0);
    expect(await tableCount('graph_chunks', id)).toBe(0);
    // Off again is harmless.
    expect((await server.as(alice.token).post(`/api/knowledge/${id}/graph/toggle`, { enabled: false })).body.status).toBe('disabled');
  }, 60_000);

  it('folds new files into a ready graph and lets removed files take their mentions with them', async () => {
    const id = await createBase(server, alice, 'Growing');
    const first = await uploadFile(server, alice, 'a.txt', 'Amara Mensah founded Meridian Labs in Accra.');
    await addAndWait(server, alice, id, first);
    await server.as(alice.token).post(`/api/knowledge/${id}/graph/toggle`, { enabled: true });
    await waitForGraph(server, alice, id);

    const second = await uploadFile(server, alice, 'b.txt', 'Keiko Tanaka joined Meridian Labs after ten years in Kyoto.');
    await addAndWait(server, alice, id, second);
    await server.services.graph.builder.settled(id);
    const grown = await waitForGraph(server, alice, id);
    expect(grown.status).toBe('ready');
    const names = async () => pageData((await server.as(alice.token).get(`/api/v1/knowledge/${id}/graph/visualize`)).text).nodes.map((n) => n.name);
    expect(await names()).toEqual(expect.arrayContaining(['Amara Mensah', 'Keiko Tanaka', 'Meridian Labs', 'Kyoto']));

    expect((await server.as(alice.token).post(`/api/knowledge/${id}/file/remove`, { file_id: second })).status).toBe(200);
    const left = await names();
    expect(left).toEqual(expect.arrayContaining(['Amara Mensah', 'Meridian Labs']));
    expect(left).not.toContain('Keiko Tanaka');
    expect(left).not.toContain('Kyoto');

    // Deleting the base deletes its graph.
    await server.as(alice.token).delete(`/api/knowledge/${id}/delete`);
    expect(await tableCount('graph_entities', id)).toBe(0);
  });

  it('gives nothing to users who may not see the base, and refuses writes by readers and bad requests', async () => {
    const pending = await buildUser(server, admin, 'pending');
    for (const path of [`/api/v1/knowledge/${linked}/graph/status`, `/api/v1/knowledge/${linked}/graph/visualize`]) {
      expect((await server.anon.get(path)).status).toBe(401);
      expect((await server.as(pending.token).get(path)).status).toBe(403);
      const hidden = await server.as(bob.token).get(path);
      expect(hidden.status).toBe(404);
      expect(hidden.text).not.toMatch(/Holm/);
    }
    expect((await fetch(`${server.url}/api/v1/knowledge/${linked}/graph/status?stream=true&token=${encodeURIComponent(bob.token)}`)).status).toBe(404);
    expect((await server.anon.post(`/api/knowledge/${linked}/graph/toggle`, { enabled: false })).status).toBe(401);
    expect((await server.as(bob.token).post(`/api/knowledge/${linked}/graph/toggle`, { enabled: false })).status).toBe(404);
    // Bob's searches never reach into Alice's graph.
    expect((await server.as(bob.token).post('/api/v1/retrieval/query/collection', { collection_names: [linked], query: 'Ingrid Holm' })).status).toBe(404);

    // A reader sees the graph but cannot turn it off.
    await server.as(alice.token).post(`/api/knowledge/${linked}/update`, { name: 'Programmes', access_control: { read: { user_ids: [bob.id] } } });
    expect((await server.as(bob.token).get(`/api/v1/knowledge/${linked}/graph/status`)).body.status).toBe('ready');
    const refused = await server.as(bob.token).post(`/api/knowledge/${linked}/graph/toggle`, { enabled: false });
    expect(refused.status).toBe(403);
    expect((await server.as(alice.token).get(`/api/v1/knowledge/${linked}/graph/status`)).body.status).toBe('ready');

    const noField = await server.as(alice.token).post(`/api/knowledge/${linked}/graph/toggle`, {});
    expect(noField.status).toBe(422);
    expect(noField.body.detail).toMatch(/enabled/);
    expect((await server.as(alice.token).post(`/api/knowledge/${linked}/graph/toggle`, { enabled: 'yes' })).status).toBe(422);
    expect((await server.as(alice.token).raw('POST', `/api/knowledge/${linked}/graph/toggle`, '{"enabled":', { 'content-type': 'application/json' })).status).toBe(400);
    const badStream = await server.as(alice.token).get(`/api/v1/knowledge/${linked}/graph/status?stream=maybe`);
    expect(badStream.status).toBe(422);
    expect(badStream.body.detail).toMatch(/stream/);
    expect((await server.as(alice.token).get('/api/v1/knowledge/no-such-base/graph/status')).status).toBe(404);
  });
});
