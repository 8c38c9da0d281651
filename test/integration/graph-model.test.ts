import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TASK_CONFIG } from '../../server/contracts/tasks';
import { startFakeOpenAI, type ChatBody, type FakeOpenAI, type FakeReply } from '../fixtures/fake-openai';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';
import { pageData, waitForGraph } from './graph-helpers';
import { addAndWait, createBase, uploadFile } from './knowledge-helpers';

const DOCS: Record<string, string> = {
  'falcon.txt': 'Ingrid Holm leads Project Falcon, a satellite imaging programme.',
  'holm.txt': 'Ingrid Holm lives in Tromsø and sails every summer.',
};

/** A model that reads each numbered passage and answers in a chatty, fenced, slightly broken JSON. */
function extractingModel(body: ChatBody): FakeReply {
  const prompt = String(body.messages?.[0]?.content ?? '');
  const passages = [...prompt.matchAll(/Passage (\d+):\n"""\n([\s\S]*?)\n"""/g)].map((m) => ({ n: Number(m[1]), text: m[2]! }));
  const answer = passages.map(({ n, text }) => {
    if (text.includes('Falcon')) {
      return { passage: n, entities: [{ name: 'Ingrid Holm', type: 'person' }, { name: 'Project Falcon', type: 'project' }], relations: [{ source: 'Ingrid Holm', target: 'Project Falcon', type: 'leads' }] };
    }
    return { passage: n, entities: [{ name: 'Ingrid Holm', type: 'person' }, 'Tromsø'], relations: [{ from: 'Ingrid Holm', to: 'Tromsø', relation: 'lives in' }] };
  });
  return { text: `Here is what I found:\n\`\`\`json\n${JSON.stringify({ passages: answer }).replace(/]}$/, ',]}')}\n\`\`\`` };
}

describe('knowledge graph with a task model', () => {
  let server: TestServer;
  let admin: TestUser;
  let alice: TestUser;
  let openai: FakeOpenAI;

  async function baseWithDocs(name: string): Promise<string> {
    const id = await createBase(server, alice, name);
    for (const [file, text] of Object.entries(DOCS)) await addAndWait(server, alice, id, await uploadFile(server, alice, file, text));
    return id;
  }

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signupAdmin(server);
    alice = await buildUser(server, admin);
    openai = await startFakeOpenAI({ key: 'sk-graph', models: ['gpt-task'] });
    expect((await server.as(admin.token).post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: ['sk-graph'], COMPAT_API_CONFIGS: {} })).status).toBe(200);
    expect((await server.as(admin.token).post('/api/v1/tasks/config/update', { ...DEFAULT_TASK_CONFIG, TASK_MODEL: 'gpt-task' })).status).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
    await openai?.close();
  });

  it('asks the task model for entities and typed relations, several chunks per call, and stores what it answers', async () => {
    openai.reset();
    openai.reply(extractingModel);
    const id = await baseWithDocs('Modelled');
    await server.as(alice.token).post(`/api/knowledge/${id}/graph/toggle`, { enabled: true });
    expect(await waitForGraph(server, alice, id)).toMatchObject({ status: 'ready', progress: 100 });

    const calls = openai.requestsTo('/chat/completions');
    expect(calls).toHaveLength(1);
    expect((calls[0]!.body as ChatBody).model).toBe('gpt-task');
    expect(String((calls[0]!.body as ChatBody).messages?.[0]?.content)).toMatch(/Passage 2:/);

    const data = pageData((await server.as(alice.token).get(`/api/v1/knowledge/${id}/graph/visualize`)).text);
    const byName = new Map(data.nodes.map((n) => [n.name, n]));
    expect(byName.get('Project Falcon')?.type).toBe('project');
    expect(byName.get('Ingrid Holm')?.mentions).toBe(2);
    const types = data.links.map((l) => l.type).sort();
    expect(types).toEqual(['leads', 'lives_in']);
  });

  it('falls back to the offline extractor when the task model fails', async () => {
    openai.reset();
    openai.reply({ status: 500, error: 'overloaded' });
    const id = await baseWithDocs('Fallback');
    await server.as(alice.token).post(`/api/knowledge/${id}/graph/toggle`, { enabled: true });
    expect(await waitForGraph(server, alice, id)).toMatchObject({ status: 'ready', progress: 100 });
    expect(openai.requestsTo('/chat/completions').length).toBeGreaterThan(0);
    const data = pageData((await server.as(alice.token).get(`/api/v1/knowledge/${id}/graph/visualize`)).text);
    expect(data.nodes.map((n) => n.name)).toEqual(expect.arrayContaining(['Ingrid Holm', 'Project Falcon', 'Tromsø']));
    expect(data.links.every((l) => l.type === 'co_occurs')).toBe(true);
  });
});
