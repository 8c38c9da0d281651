import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TASK_CONFIG } from '../../server/contracts/tasks';
import { signupAdmin, type TestUser } from '../helpers/builders';
import { makeDocx, makePdf } from '../fixtures/documents/build-documents';
import { startFakeOllama, type FakeOllama } from '../fixtures/fake-ollama';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai';
import { startMcpServer, type McpServerFixture } from '../fixtures/mcp-server';
import { tinyGguf } from '../fixtures/tiny-gguf';
import { waitForGraph } from '../integration/graph-helpers';
import { createBase, query, uploadFile, waitForFiles } from '../integration/knowledge-helpers';
import { startBuiltService, type BuiltService } from './built-service';

/** Pyodide and llama.cpp start slowly on a busy machine. */
const SLOW = 180_000;

/** A news page without `<main>`: only Readability tells the article from the menu and the footer. */
const NEWS_PAGE = `<!doctype html><html><head><title>Harbour news</title></head><body>
<div class="site-menu"><a href="/">Home</a> <a href="/shop">Marmalade shop</a> <a href="/jobs">Careers at Quillworth</a></div>
<div id="content" class="article-body"><h1>The harbour crane</h1>
<p>The old harbour crane at Port Wendell was restored in the spring by a team of volunteers who spent four months replacing its rusted gears, rebuilding the timber cab and repainting the jib in the original signal red.</p>
<p>Engineers confirmed that the crane can once again lift eleven tonnes, the load it was designed for when it was installed beside the fish market in 1911, and the town plans to use it during the summer regatta.</p>
<p>Visitors can climb to the cab on Saturday mornings, when the volunteers explain how the counterweight and the hand-cranked winch work, and children may ring the brass warning bell.</p>
</div>
<div class="site-footer">Copyright Quillworth Media. Privacy policy. Newsletter signup for marmalade lovers.</div>
</body></html>`;

const PYTHON_TOOL = `
class Tools:
    def add(self, a: int, b: int = 2) -> int:
        """Add two whole numbers.

        :param a: the first number
        """
        return a + b
`;

/** Error-level lines (pino level ≥ 50) and worker fallbacks the built service logged. */
function troubles(output: string): string[] {
  return output.split('\n').filter((line) => {
    if (/working in-process/.test(line)) return true;
    try {
      return (JSON.parse(line) as { level?: number }).level! >= 50;
    } catch {
      return false;
    }
  });
}

/**
 * What the built service loads lazily (libraries bundled into chunks or left outside, worker
 * threads, the Pyodide sandbox, llama.cpp), exercised through its API as people use it.
 */
describe('the built service at work', () => {
  let service: BuiltService;
  let admin: TestUser;
  let openai: FakeOpenAI;
  let ollama: FakeOllama;
  let mcp: McpServerFixture;

  beforeAll(async () => {
    [service, openai, ollama, mcp] = await Promise.all([
      startBuiltService(),
      startFakeOpenAI({ key: 'sk-dist', models: ['gpt-fake'] }),
      startFakeOllama({ models: ['llama-fake:latest'] }),
      startMcpServer(),
    ]);
    admin = await signupAdmin(service);
    const as = service.as(admin.token);
    const off = { ...DEFAULT_TASK_CONFIG, ENABLE_TITLE_GENERATION: false, ENABLE_TAGS_GENERATION: false, ENABLE_FOLLOW_UP_GENERATION: false };
    expect((await as.post('/api/v1/tasks/config/update', off)).status).toBe(200);
  }, 90_000);

  afterAll(async () => {
    await Promise.all([service?.close(), openai?.close(), ollama?.close(), mcp?.close()]);
  });

  it('indexes HTML without its menu and footer, and DOCX and PDF text, on the ingestion worker (token splitter)', async () => {
    const as = service.as(admin.token);
    expect((await as.post('/api/v1/retrieval/config/update', { TEXT_SPLITTER: 'token', CHUNK_SIZE: 200, CHUNK_OVERLAP: 20 })).status).toBe(200);
    const base = await createBase(service, admin, 'Built');
    const files = {
      html: await uploadFile(service, admin, 'harbour.html', NEWS_PAGE),
      docx: await uploadFile(service, admin, 'minutes.docx', await makeDocx([{ heading: 'Minutes', paragraphs: ['The committee chose the colour periwinkle for the new ferry.'] }])),
      pdf: await uploadFile(service, admin, 'report.pdf', await makePdf(['The lighthouse keeper logged forty-two storms in the ledger.'])),
    };
    for (const id of Object.values(files)) expect((await as.post(`/api/knowledge/${base}/file/add`, { file_id: id })).status).toBe(200);
    const indexed = await waitForFiles(service, admin, base, 60_000);
    expect(indexed.map((f) => [f.name, f.status, f.error ?? null])).toEqual(expect.arrayContaining([['harbour.html', 'completed', null], ['minutes.docx', 'completed', null], ['report.pdf', 'completed', null]]));

    const everything = await query(service, admin, [base], 'harbour crane periwinkle lighthouse marmalade Quillworth', { k: 50, relevance_threshold: 0 });
    const text = everything.documents.join('\n');
    expect(text).toMatch(/lift eleven tonnes/);
    expect(text).toMatch(/periwinkle/);
    expect(text).toMatch(/forty-two storms/);
    // Readability kept the article only: the site's menu and footer were not indexed.
    expect(text).not.toMatch(/Marmalade|Quillworth|Privacy policy/i);
  }, SLOW);

  it('builds a knowledge graph offline on the extraction worker', async () => {
    const base = await createBase(service, admin, 'Graph');
    const file = await uploadFile(service, admin, 'people.txt', 'Ada Lovelace met Charles Babbage in London. Charles Babbage designed the Analytical Engine in London.');
    expect((await service.as(admin.token).post(`/api/knowledge/${base}/file/add`, { file_id: file })).status).toBe(200);
    await waitForFiles(service, admin, base);
    expect((await service.as(admin.token).post(`/api/knowledge/${base}/graph/toggle`, { enabled: true })).status).toBe(200);
    const graph = await waitForGraph(service, admin, base);
    expect(graph).toMatchObject({ status: 'ready' });
    expect(graph.entities).toBeGreaterThanOrEqual(2);
  }, SLOW);

  it('chats through an OpenAI-compatible and an Ollama-style provider', async () => {
    const as = service.as(admin.token);
    expect((await as.post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: ['sk-dist'], COMPAT_API_CONFIGS: {} })).status).toBe(200);
    expect((await as.post('/local/config/update', { LOCAL_BASE_URLS: [ollama.url], LOCAL_API_CONFIGS: {} })).status).toBe(200);
    const listed = (await as.get('/api/models')).body as { data?: Array<{ id: string }> } | Array<{ id: string }>;
    const ids = (Array.isArray(listed) ? listed : (listed.data ?? [])).map((m) => m.id);
    expect(ids).toEqual(expect.arrayContaining(['gpt-fake', 'llama-fake:latest']));
    for (const model of ['gpt-fake', 'llama-fake:latest']) {
      const res = await as.post('/api/chat/completions', { model, messages: [{ role: 'user', content: 'ping' }] });
      expect(res.status, res.text).toBe(200);
      expect(res.body.choices[0].message.content).toMatch(/ping/);
    }
  }, SLOW);

  it('reads Python tool functions in the Pyodide sandbox and runs one the model calls', async () => {
    const as = service.as(admin.token);
    const created = await as.post('/api/v1/tools/create', { name: 'Adder', type: 'python', config: { content: PYTHON_TOOL, timeout: 5 } });
    expect(created.status, created.text).toBe(200);
    expect(created.body.specs.map((s: { name: string }) => s.name)).toEqual(['add']);
    openai.reset();
    openai.replyOnce({ text: '', tool_calls: [{ id: 'call_add', name: 'add', arguments: { a: 40 } }] });
    openai.replyOnce({ text: 'done' });
    const res = await as.post('/api/chat/completions', { model: 'gpt-fake', messages: [{ role: 'user', content: 'add' }], tool_ids: [created.body.id] });
    expect(res.status, res.text).toBe(200);
    const toolMessage = openai.chats()[1]!.body.messages.find((m: { role: string }) => m.role === 'tool');
    expect(toolMessage.content).toBe('42');
  }, SLOW);

  it('lists the tools of an MCP server', async () => {
    const res = await service.as(admin.token).post('/api/v1/configs/tool_servers/verify', { url: mcp.url, type: 'mcp', auth_type: 'none', key: '' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.specs.map((s: { name: string }) => s.name)).toContain('add');
  });

  it('imports a GGUF model and answers with it in the built-in runtime', async () => {
    const form = new FormData();
    form.append('file', new Blob([tinyGguf()]), 'tiny.gguf');
    const imported = await service.as(admin.token).raw('POST', '/builtin/models/import', form);
    expect(imported.status, imported.text).toBe(200);
    expect(imported.body.status).toBe('ready');
    const res = await service.as(admin.token).post('/api/chat/completions', { model: imported.body.id, messages: [{ role: 'user', content: 'hello there' }], temperature: 0, max_tokens: 6 });
    expect(res.status, res.text).toBe(200);
    expect(res.body.usage.completion_tokens).toBe(6);
    expect(res.body.choices[0].message.content.length).toBeGreaterThan(0);
  }, SLOW);

  it('logged no error and never fell back from a worker thread to the main thread', () => {
    expect(troubles(service.output())).toEqual([]);
    expect(service.exited()).toBeUndefined();
  });
});
