import { existsSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai';
import { DEFAULT_TASK_CONFIG } from '../../server/contracts/tasks';

// Pyodide loads in ~2 s on an idle machine, much longer on a busy CI runner.
const SLOW = 180_000;
const ESCAPE_FILE = `/tmp/parley-python-escape-${process.pid}`;

const SOURCE = `
import json

class Tools:
    def __init__(self):
        self.greeting = "Hello"

    def add(self, a: int, b: int = 2) -> int:
        """Add two whole numbers.

        :param a: the first number
        :param b: the second number
        """
        return a + b

    async def greet(self, name: str, excited: bool = False, __user__: dict = None) -> str:
        """Greet someone by name.

        Args:
            name (str): who to greet
            excited: shout it
        """
        return f"{self.greeting} {name} from {__user__['name']}" + ("!" if excited else "")

    def spin(self) -> str:
        """Never returns."""
        while True:
            pass

    def hog(self) -> int:
        """Allocates far too much memory."""
        blocks = []
        for _ in range(100):
            blocks.append(bytearray(50 * 1024 * 1024))
        return len(blocks)

    def escape(self) -> str:
        """Tries to reach the host."""
        results = []
        for name, attempt in [
            ("read", lambda: open("/etc/passwd").read()),
            ("js", lambda: __import__("js").process),
            ("ctor", lambda: __import__("pyodide.ffi").ffi.to_js({}).constructor.constructor("return process")()),
            ("api", lambda: __import__("pyodide_js").FS),
            ("ctypes", lambda: __import__("ctypes")),
        ]:
            try:
                attempt()
                results.append(name + ":open")
            except BaseException as e:
                results.append(name + ":blocked")
        with open("${ESCAPE_FILE}", "w") as f:
            f.write("written inside the sandbox")
        return ",".join(results)

    def _private(self):
        return "hidden"
`;

describe('Python tools', () => {
  let server: TestServer;
  let admin: TestUser;
  let alice: TestUser;
  let openai: FakeOpenAI;
  let toolId = '';

  /** One chat turn where the model calls `name(args)` of the Python tool; answers the tool result. */
  async function callThroughChat(name: string, args: Record<string, unknown>, stream = false): Promise<string> {
    openai.reset();
    openai.replyOnce({ text: '', tool_calls: [{ id: 'call_py', name, arguments: args }] });
    openai.replyOnce({ text: 'done' });
    const res = await server.as(alice.token).post('/api/chat/completions', { model: 'gpt-fake', messages: [{ role: 'user', content: `run ${name}` }], tool_ids: [toolId], stream });
    expect(res.status).toBe(200);
    if (stream) expect(res.text).toContain('data: [DONE]');
    else expect(res.body.choices[0].message.content).toBe('done');
    return openai.chats()[1]!.body.messages.find((m: { role: string }) => m.role === 'tool').content as string;
  }

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signupAdmin(server);
    alice = await buildUser(server, admin, 'user', 'Alice');
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

  it(
    'reads function schemas from the class Tools signatures and docstrings',
    async () => {
      expect(server.services.tools.python.running).toBe(false);
      const res = await server.as(admin.token).post('/api/v1/tools/create', { name: 'Helpers', type: 'python', description: 'Small helpers', config: { content: SOURCE, timeout: 2, memory_mb: 128 } });
      expect(res.status).toBe(200);
      toolId = res.body.id;
      expect(res.body).toMatchObject({ name: 'Helpers', type: 'python', created_at: expect.any(Number) });
      const specs = res.body.specs as Array<{ name: string; description: string; parameters: unknown }>;
      expect(specs.map((s) => s.name)).toEqual(['add', 'greet', 'spin', 'hog', 'escape']);
      expect(specs[0]).toEqual({
        name: 'add',
        description: 'Add two whole numbers.',
        parameters: { type: 'object', properties: { a: { type: 'integer', description: 'the first number' }, b: { type: 'integer', description: 'the second number', default: 2 } }, required: ['a'] },
      });
      expect(specs[1]).toEqual({
        name: 'greet',
        description: 'Greet someone by name.',
        parameters: { type: 'object', properties: { name: { type: 'string', description: 'who to greet' }, excited: { type: 'boolean', description: 'shout it', default: false } }, required: ['name'] },
      });
      expect((await server.as(alice.token).get(`/api/v1/tools/${toolId}`)).body.config.content).toBe(SOURCE);
    },
    SLOW,
  );

  it(
    'answers 400 with the Python message for a syntax error, and for source without class Tools',
    async () => {
      const as = server.as(admin.token);
      const broken = await as.post('/api/v1/tools/create', { name: 'Broken', type: 'python', config: { content: 'class Tools:\n    def f(self:\n        pass\n' } });
      expect(broken.status).toBe(400);
      expect(broken.body.detail).toMatch(/^Python syntax error: SyntaxError: .*\(line \d+\)/);
      const noClass = await as.post('/api/v1/tools/create', { name: 'Empty', type: 'python', config: { content: 'def f():\n    return 1\n' } });
      expect(noClass.status).toBe(400);
      expect(noClass.body.detail).toMatch(/class named Tools/);
      const noSource = await as.post('/api/v1/tools/create', { name: 'Nothing', type: 'python', config: {} });
      expect(noSource.status).toBe(400);
      expect(noSource.body.detail).toMatch(/content/);
    },
    SLOW,
  );

  it(
    'runs a function the model calls, sync and async, with the caller as __user__ (non-stream and stream)',
    async () => {
      expect(await callThroughChat('add', { a: 40 })).toBe('42');
      expect(await callThroughChat('greet', { name: 'Bob', excited: true }, true)).toBe('Hello Bob from Alice!');
    },
    SLOW,
  );

  it(
    'stops an endless loop at the time limit and keeps working afterwards',
    async () => {
      const started = Date.now();
      const result = await callThroughChat('spin', {});
      expect(result).toMatch(/time limit \(2 s\)/);
      expect(Date.now() - started).toBeLessThan(SLOW);
      expect(await callThroughChat('add', { a: 1, b: 1 })).toBe('2');
    },
    SLOW,
  );

  it(
    'stops a memory bomb at the memory limit and keeps working afterwards',
    async () => {
      expect(await callThroughChat('hog', {})).toMatch(/out of memory/);
      expect(await callThroughChat('add', { a: 2, b: 2 })).toBe('4');
    },
    SLOW,
  );

  it(
    'gives Python no way to the host filesystem or Node',
    async () => {
      const result = await callThroughChat('escape', {});
      expect(result).toBe('read:blocked,js:blocked,ctor:blocked,api:blocked,ctypes:blocked');
      expect(existsSync(ESCAPE_FILE)).toBe(false);
    },
    SLOW,
  );

  it(
    'gives the model an error result for bad arguments instead of breaking the chat',
    async () => {
      expect(await callThroughChat('add', { b: 1 })).toMatch(/missing 1 required positional argument: 'a'/);
      expect(await callThroughChat('_private', {})).toMatch(/No tool named _private/);
    },
    SLOW,
  );
});
