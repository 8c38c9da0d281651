import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CODE_EXECUTION_CONFIG } from '../../server/contracts/code';
import { DEFAULT_TASK_CONFIG } from '../../server/contracts/tasks';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';
import { sseFrames } from '../helpers/sse';
import { startFakeOpenAI, type ChatBody, type FakeOpenAI } from '../fixtures/fake-openai';

// Pyodide loads in ~2 s on an idle machine, much longer on a busy CI runner.
const SLOW = 240_000;

function form(name: string, data: string): FormData {
  const body = new FormData();
  body.append('files', new Blob([data], { type: 'text/csv' }), name);
  return body;
}

const lastMessage = (body: ChatBody) => body.messages?.[body.messages.length - 1];

describe('code execution and the code interpreter', () => {
  let server: TestServer;
  let admin: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  let openai: FakeOpenAI;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signupAdmin(server);
    alice = await buildUser(server, admin, 'user', 'Alice');
    bob = await buildUser(server, admin, 'user', 'Bob');
    openai = await startFakeOpenAI({ key: 'sk-chat', models: ['gpt-fake'] });
    const as = server.as(admin.token);
    expect((await as.post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: ['sk-chat'], COMPAT_API_CONFIGS: {} })).status).toBe(200);
    const off = { ...DEFAULT_TASK_CONFIG, ENABLE_TITLE_GENERATION: false, ENABLE_TAGS_GENERATION: false, ENABLE_FOLLOW_UP_GENERATION: false };
    expect((await as.post('/api/v1/tasks/config/update', off)).status).toBe(200);
  }, SLOW);
  afterAll(async () => {
    await server?.close();
    await openai?.close();
  });
  beforeEach(() => openai.reset());

  it('keeps the settings in Open WebUI’s shape, for admins only, and refuses another engine', async () => {
    const got = await server.as(admin.token).get('/api/v1/configs/code_execution');
    expect(got.status).toBe(200);
    expect(got.body).toEqual(DEFAULT_CODE_EXECUTION_CONFIG);
    expect((await server.as(alice.token).get('/api/v1/configs/code_execution')).status).toBe(403);
    expect((await server.anon.get('/api/v1/configs/code_execution')).status).toBe(401);
    const jupyter = await server.as(admin.token).post('/api/v1/configs/code_execution', { ...DEFAULT_CODE_EXECUTION_CONFIG, CODE_EXECUTION_ENGINE: 'jupyter' });
    expect(jupyter.status).toBe(400);
    expect(jupyter.body.detail).toMatch(/CODE_EXECUTION_ENGINE.*pyodide/);
    const changed = await server.as(admin.token).post('/api/v1/configs/code_execution', { ...DEFAULT_CODE_EXECUTION_CONFIG, CODE_EXECUTION_TIMEOUT: 5 });
    expect(changed.body.CODE_EXECUTION_TIMEOUT).toBe(5);
    expect((await server.as(alice.token).get('/api/config')).body.features).toMatchObject({ enable_code_execution: true, enable_code_interpreter: true });
    expect((await server.anon.get('/api/config')).body.features.enable_code_interpreter).toBeUndefined();
  });

  it(
    'runs code for the Run button: {stdout, stderr, result}, a traceback in stderr, a runaway loop stopped',
    async () => {
      expect((await server.as(alice.token).post('/api/v1/utils/code/warm')).body).toEqual({ status: true });
    const run = await server.as(alice.token).post('/api/v1/utils/code/execute', { code: 'print("hi")\n6 * 7' });
      expect(run.status).toBe(200);
      expect(run.body).toMatchObject({ stdout: 'hi\n', stderr: '', result: '42', error: null, files: [] });
      // Each click starts clean.
      const again = await server.as(alice.token).post('/api/v1/utils/code/execute', { code: 'x = 1' });
      expect(again.body.result).toBe('');
      const failed = await server.as(alice.token).post('/api/v1/utils/code/execute', { code: '1 / 0' });
      expect(failed.body.stderr).toMatch(/ZeroDivisionError: division by zero/);
      const spin = await server.as(alice.token).post('/api/v1/utils/code/execute', { code: 'while True:\n    pass' });
      expect(spin.status).toBe(200);
      expect(spin.body.error).toMatch(/ran longer than 5 s/);
      expect((await server.as(alice.token).post('/api/v1/utils/code/execute', { code: '"still here"' })).body.result).toBe("'still here'");
      expect((await server.anon.get('/health')).status).toBe(200);
    },
    SLOW,
  );

  it('refuses bad input and callers without the switch or the permission', async () => {
    const as = server.as(alice.token);
    expect((await as.post('/api/v1/utils/code/execute', {})).status).toBe(400);
    expect((await as.post('/api/v1/utils/code/execute', { code: '' })).status).toBe(400);
    expect((await as.post('/api/v1/utils/code/execute', { code: 42 })).status).toBe(400);
    expect((await as.raw('POST', '/api/v1/utils/code/execute', '{"code":', { 'content-type': 'application/json' })).status).toBe(400);
    expect((await server.anon.post('/api/v1/utils/code/execute', { code: '1' })).status).toBe(401);
    // Someone else's file is not readable by the code.
    const upload = await server.as(bob.token).raw('POST', '/api/v1/chats/attachment/upload', form('bob.csv', 'a,b\n1,2\n'));
    const other = await as.post('/api/v1/utils/code/execute', { code: 'print(1)', file_ids: [upload.body[0].id] });
    expect(other.status).toBe(403);

    const defaults = (await server.as(admin.token).get('/api/v1/users/default/permissions')).body;
    await server.as(admin.token).post('/api/v1/users/default/permissions', { ...defaults, features: { ...defaults.features, code_interpreter: false } });
    try {
      const refused = await as.post('/api/v1/utils/code/execute', { code: '1' });
      expect(refused.status).toBe(403);
      expect(refused.body.detail).toMatch(/features\.code_interpreter/);
      const chat = await as.post('/api/chat/completions', { model: 'gpt-fake', messages: [{ role: 'user', content: 'hi' }], features: { code_interpreter: true } });
      expect(chat.status).toBe(403);
      const v1 = await as.post('/v1/chat/completions', { model: 'gpt-fake', messages: [{ role: 'user', content: 'hi' }], features: { code_interpreter: true } });
      expect(v1.status).toBe(403);
      expect(openai.chats()).toHaveLength(0);
    } finally {
      await server.as(admin.token).post('/api/v1/users/default/permissions', defaults);
    }

    const config = (await server.as(admin.token).get('/api/v1/configs/code_execution')).body;
    await server.as(admin.token).post('/api/v1/configs/code_execution', { ...config, ENABLE_CODE_EXECUTION: false, ENABLE_CODE_INTERPRETER: false });
    try {
      expect((await as.post('/api/v1/utils/code/execute', { code: '1' })).status).toBe(403);
      expect((await server.as(admin.token).post('/api/v1/utils/code/execute', { code: '1' })).status).toBe(403);
      expect((await as.post('/api/chat/completions', { model: 'gpt-fake', messages: [{ role: 'user', content: 'hi' }], features: { code_interpreter: true } })).status).toBe(403);
    } finally {
      await server.as(admin.token).post('/api/v1/configs/code_execution', config);
    }
  });

  it(
    'lets a model calling tools run Python on the chat’s file, reads the output back, and saves the steps and the chart',
    async () => {
      const as = server.as(alice.token);
      const chat = (await as.post('/api/v1/chats/new', { chat: { title: 'Sales' } })).body;
      const upload = await as.raw('POST', '/api/v1/chats/attachment/upload', form('sales.csv', 'month,amount\nJan,3\nFeb,5\nMar,2\n'));
      const fileId = upload.body[0].id as string;
      const code = [
        'import csv',
        'import matplotlib.pyplot as plt',
        "rows = list(csv.DictReader(open('/mnt/data/sales.csv')))",
        "plt.bar([r['month'] for r in rows], [int(r['amount']) for r in rows])",
        "plt.title('Sales')",
        "plt.savefig('sales.svg')",
        "print('total', sum(int(r['amount']) for r in rows))",
      ].join('\n');
      openai.replyOnce({ text: '', tool_calls: [{ id: 'call_1', name: 'execute_python', arguments: { code } }] });
      openai.replyOnce((body) => ({ text: `The total is ${String(lastMessage(body)?.content).match(/total (\d+)/)?.[1]}.` }));
      const res = await as.post('/api/chat/completions', {
        model: 'gpt-fake',
        stream: true,
        chat_id: chat.id,
        messages: [{ role: 'user', content: 'Plot the sales per month' }],
        files: [{ type: 'file', id: fileId }],
        features: { code_interpreter: true },
      });
      expect(res.status).toBe(200);
      const first = openai.chats()[0]!.body;
      expect(first.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual(['execute_python']);
      expect(first.messages[0].content).toMatch(/Code interpreter/);
      const tool = openai.chats()[1]!.body.messages.find((m: { role: string }) => m.role === 'tool');
      expect(tool.content).toMatch(/total 10/);
      expect(tool.content).toMatch(/sales\.svg \(image\/svg\+xml\)/);

      const events = sseFrames(res.text);
      const step = events.find((e) => e.tool_step)!.tool_step;
      expect(step).toMatchObject({ name: 'execute_python', kind: 'code', error: null, result: 'total 10\n' });
      expect(JSON.parse(step.arguments).code).toBe(code);
      expect(step.files).toEqual([expect.objectContaining({ name: 'sales.svg', type: 'image/svg+xml', url: expect.stringMatching(/^\/api\/v1\/files\/.+\/content$/) })]);
      expect(events.map((e) => e.choices?.[0]?.delta?.content ?? '').join('')).toBe('The total is 10.');

      // The chart is Alice's file, downloadable by her only.
      const svg = await as.get(step.files[0].url);
      expect(svg.status).toBe(200);
      expect(svg.text).toContain('>Sales</text>');
      expect((await server.as(bob.token).get(step.files[0].url)).status).toBe(403);

      const saved = (await as.get(`/api/v1/chats/${chat.id}`)).body;
      const answer = saved.messages.find((m: { role: string }) => m.role === 'assistant');
      expect(answer.tool_steps[0]).toMatchObject({ kind: 'code', files: [expect.objectContaining({ name: 'sales.svg' })] });
    },
    SLOW,
  );

  it(
    'runs the fenced block a model without native tools writes, stops it there, and lets it continue',
    async () => {
      const as = server.as(alice.token);
      const created = await as.post('/api/v1/models/create', {
        id: 'prompt-coder',
        name: 'Prompt coder',
        base_model_id: 'gpt-fake',
        params: { function_calling: 'prompt' },
        meta: {},
      });
      expect(created.status).toBe(200);
      openai.replyOnce({ pieces: ['Computing.\n\n```python\n', 'print(sum(range(101)))\n', '```\n', 'HALLUCINATED OUTPUT'] });
      openai.replyOnce((body) => ({ text: `It is ${String(lastMessage(body)?.content).match(/stdout:\n(\d+)/)?.[1]}.` }));
      const res = await as.post('/api/chat/completions', { model: 'prompt-coder', messages: [{ role: 'user', content: 'Sum 0..100' }], features: { code_interpreter: true } });
      expect(res.status).toBe(200);
      expect(openai.chats()[0]!.body.tools).toBeUndefined();
      const second = openai.chats()[1]!.body.messages;
      expect(second.at(-2)).toEqual({ role: 'assistant', content: 'Computing.\n\n```python\nprint(sum(range(101)))\n```' });
      expect(second.at(-1).role).toBe('user');
      expect(res.body.choices[0].message.content).toBe('Computing.\n\n```python\nprint(sum(range(101)))\n```\n\nIt is 5050.');
    },
    SLOW,
  );
});
