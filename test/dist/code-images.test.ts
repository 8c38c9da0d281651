import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TASK_CONFIG } from '../../server/contracts/tasks';
import { signupAdmin, type TestUser } from '../helpers/builders';
import { startFakeComfyUI, startFakeOpenAIImages, type FakeEngine } from '../fixtures/fake-image-engines';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai';
import { startBuiltService, type BuiltService } from './built-service';

/** Pyodide starts slowly on a busy machine. */
const SLOW = 180_000;

/**
 * The code interpreter and image generation in the built service (`node dist/server/cli.js`):
 * Pyodide's worker and its files, Parley's offline matplotlib, and the `ws` library ComfyUI's
 * progress needs load from the bundle as they do for people.
 */
describe('the built service makes charts and images', () => {
  let service: BuiltService;
  let admin: TestUser;
  let openai: FakeOpenAI;
  let openaiImages: FakeEngine;
  let comfy: FakeEngine;

  beforeAll(async () => {
    [service, openai, openaiImages, comfy] = await Promise.all([
      startBuiltService(),
      startFakeOpenAI({ key: 'sk-dist', models: ['gpt-fake'] }),
      startFakeOpenAIImages({ key: 'sk-images' }),
      startFakeComfyUI({}),
    ]);
    admin = await signupAdmin(service);
    const as = service.as(admin.token);
    const off = { ...DEFAULT_TASK_CONFIG, ENABLE_TITLE_GENERATION: false, ENABLE_TAGS_GENERATION: false, ENABLE_FOLLOW_UP_GENERATION: false };
    expect((await as.post('/api/v1/tasks/config/update', off)).status).toBe(200);
    expect((await as.post('/compat/config/update', { COMPAT_API_BASE_URLS: [openai.url], COMPAT_API_KEYS: ['sk-dist'], COMPAT_API_CONFIGS: {} })).status).toBe(200);
  }, 90_000);

  afterAll(async () => {
    await Promise.all([service?.close(), openai?.close(), openaiImages?.close(), comfy?.close()]);
  });

  it('runs Python for the Run button and draws a chart offline', async () => {
    const code = ['import matplotlib.pyplot as plt', 'plt.plot([1, 2, 3], [2, 4, 3])', "plt.title('Built')", "plt.savefig('built.svg')", 'sum(range(101))'].join('\n');
    const res = await service.as(admin.token).post('/api/v1/utils/code/execute', { code });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ result: '5050', error: null });
    expect(res.body.files).toEqual([expect.objectContaining({ name: 'built.svg', type: 'image/svg+xml' })]);
    const svg = await service.as(admin.token).get(res.body.files[0].url);
    expect(svg.status).toBe(200);
    expect(svg.text).toContain('>Built</text>');
  }, SLOW);

  it('lets a model run Python through the code interpreter and read its output', async () => {
    openai.reset();
    openai.replyOnce({ text: '', tool_calls: [{ id: 'call_py', name: 'execute_python', arguments: { code: 'print(6 * 7)' } }] });
    openai.replyOnce({ text: 'done' });
    const res = await service.as(admin.token).post('/api/chat/completions', { model: 'gpt-fake', messages: [{ role: 'user', content: 'six times seven' }], features: { code_interpreter: true } });
    expect(res.status, res.text).toBe(200);
    const tool = openai.chats()[1]!.body.messages.find((m: { role: string }) => m.role === 'tool');
    expect(tool.content).toMatch(/42/);
  }, SLOW);

  it('generates images through an OpenAI-compatible engine and through ComfyUI (its socket)', async () => {
    const as = service.as(admin.token);
    const base = (await as.get('/api/v1/images/config')).body;
    const configured = await as.post('/api/v1/images/config/update', { ...base, ENABLE_IMAGE_GENERATION: true, IMAGE_GENERATION_ENGINE: 'openai', IMAGES_OPENAI_API_BASE_URL: openaiImages.url, IMAGES_OPENAI_API_KEY: 'sk-images' });
    expect(configured.status, configured.text).toBe(200);
    const made = await as.post('/api/v1/images/generations', { prompt: 'a blue square' });
    expect(made.status, made.text).toBe(200);
    expect((await as.get(made.body[0].url)).status).toBe(200);

    const comfyConfigured = await as.post('/api/v1/images/config/update', { ...configured.body, IMAGE_GENERATION_ENGINE: 'comfyui', COMFYUI_BASE_URL: comfy.url, IMAGE_GENERATION_MODEL: 'dreamshaper_8.safetensors' });
    expect(comfyConfigured.status, comfyConfigured.text).toBe(200);
    const drawn = await as.post('/api/v1/images/generations', { prompt: 'a red square' });
    expect(drawn.status, drawn.text).toBe(200);
    expect((await as.get(drawn.body[0].url)).status).toBe(200);
    expect(comfy.requests.some((r) => r.path === '/prompt')).toBe(true);
  }, SLOW);

  it('logged no error', () => {
    const errors = service
      .output()
      .split('\n')
      .filter((line) => {
        try {
          return (JSON.parse(line) as { level?: number }).level! >= 50;
        } catch {
          return false;
        }
      });
    expect(errors).toEqual([]);
    expect(service.exited()).toBeUndefined();
  });
});
