import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai';
import { DEFAULT_TASK_CONFIG } from '../../server/contracts/tasks';
import { uploadFile } from './knowledge-helpers';

const systemOf = (fake: FakeOpenAI) => {
  const messages = fake.lastChat()!.body.messages as Array<{ role: string; content: string }>;
  return messages.filter((m) => m.role === 'system').map((m) => m.content).join('\n');
};

/** A long report: an introduction, many filler sections, and one fact deep inside. */
function longReport(): string {
  const parts = ['Quarterly report of the Heron project. This introduction says what the report covers.'];
  for (let i = 1; i <= 120; i++) {
    parts.push(i === 77 ? 'Section 77. The storage vendor chosen for Heron is Bluefin Systems, signed in March.' : `Section ${i}. Routine notes about meetings, schedules and minor budget lines number ${i}.`);
  }
  return parts.join('\n\n');
}

describe('files attached to a message always reach the model', () => {
  let server: TestServer;
  let admin: TestUser;
  let alice: TestUser;
  let fake: FakeOpenAI;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signupAdmin(server);
    alice = await buildUser(server, admin);
    fake = await startFakeOpenAI({ key: 'sk-chat', models: ['gpt-fake'] });
    const as = server.as(admin.token);
    await as.post('/compat/config/update', { COMPAT_API_BASE_URLS: [fake.url], COMPAT_API_KEYS: ['sk-chat'], COMPAT_API_CONFIGS: {} });
    const off = { ...DEFAULT_TASK_CONFIG, ENABLE_TITLE_GENERATION: false, ENABLE_TAGS_GENERATION: false, ENABLE_FOLLOW_UP_GENERATION: false };
    expect((await as.post('/api/v1/tasks/config/update', off)).status).toBe(200);
    const small = await as.post('/api/v1/models/create', { id: 'small-window', name: 'Small window', base_model_id: 'gpt-fake', params: { num_ctx: 1000 }, meta: {}, access_control: null });
    expect(small.status, small.text).toBe(200);
  });
  afterAll(async () => {
    await server.close();
    await fake.close();
  });

  it('sends the whole document for "Summarize this document", although no passage matches the words', async () => {
    const text = '# Memo\n\nThe cafeteria serves lentil soup on Fridays.\n\nParking moves to level B from June.';
    const memo = await uploadFile(server, alice, 'memo.md', text);
    const res = await server.as(alice.token).post('/api/chat/completions', {
      model: 'gpt-fake',
      messages: [{ role: 'user', content: 'Summarize this document' }],
      files: [{ type: 'file', id: memo }],
    });
    expect(res.status, res.text).toBe(200);
    expect(systemOf(fake)).toContain('lentil soup on Fridays');
    expect(systemOf(fake)).toContain('Parking moves to level B');
    expect(res.body.sources).toHaveLength(1);
    expect(res.body.sources[0].source).toMatchObject({ id: memo, name: 'memo.md', type: 'file' });
    expect(res.body.sources[0].metadata[0]).toMatchObject({ attached: 'full', file_id: memo });
  });

  it('sends the beginning and the best passages of a file larger than the model’s window', async () => {
    const report = await uploadFile(server, alice, 'report.txt', longReport());
    const res = await server.as(alice.token).post('/api/chat/completions', {
      model: 'small-window',
      messages: [{ role: 'user', content: 'Which storage vendor was chosen for Heron?' }],
      files: [{ type: 'file', id: report }],
    });
    expect(res.status, res.text).toBe(200);
    const system = systemOf(fake);
    expect(system).toContain('Quarterly report of the Heron project');
    expect(system).toContain('Bluefin Systems');
    expect(system).not.toContain('Section 119.');
    expect(system.length).toBeLessThan(4000);
    const source = res.body.sources[0];
    expect(source.metadata.every((m: { attached: string }) => m.attached === 'passages')).toBe(true);
    expect(source.document.length).toBeGreaterThan(1);
  });

  it('keeps attached files when the chat also searches a knowledge base with nothing relevant', async () => {
    const base = await server.as(alice.token).post('/api/knowledge/create', { name: 'Empty', description: 'nothing' });
    const memo = await uploadFile(server, alice, 'plan.txt', 'The offsite is in Lisbon on the 4th of May.');
    const res = await server.as(alice.token).post('/api/chat/completions', {
      model: 'gpt-fake',
      messages: [{ role: 'user', content: 'Summarize' }],
      files: [{ type: 'file', id: memo }, { type: 'collection', id: base.body.id }],
    });
    expect(res.status, res.text).toBe(200);
    expect(systemOf(fake)).toContain('Lisbon on the 4th of May');
  });
});
