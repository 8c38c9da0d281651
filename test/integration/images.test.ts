import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_TASK_CONFIG } from '../../server/contracts/tasks';
import { ImagesSection } from '../../server/images/images-settings';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { startTestServer, type TestServer } from '../helpers/server';
import { sseFrames } from '../helpers/sse';
import { startFakeAutomatic1111, startFakeComfyUI, startFakeOpenAIImages, type FakeEngine } from '../fixtures/fake-image-engines';
import { startFakeOpenAI, type FakeOpenAI } from '../fixtures/fake-openai';

const PNG_MAGIC = '89504e47';

describe('image generation', () => {
  let server: TestServer;
  let admin: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  let chatModel: FakeOpenAI;
  let openaiImages: FakeEngine;
  let comfy: FakeEngine;
  let a1111: FakeEngine;
  let base: Record<string, unknown>;

  const configure = async (patch: Record<string, unknown>) => {
    const res = await server.as(admin.token).post('/api/v1/images/config/update', { ...base, ...patch });
    expect(res.status, res.text).toBe(200);
    base = res.body;
    return res.body;
  };
  /** The colour of a stored PNG (the fakes draw one solid colour each). */
  const colourOf = async (url: string, token = alice.token) => {
    const res = await fetch(`${server.url}${url}`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(0, 4).toString('hex')).toBe(PNG_MAGIC);
    return bytes;
  };

  beforeAll(async () => {
    server = await startTestServer();
    admin = await signupAdmin(server);
    alice = await buildUser(server, admin, 'user', 'Alice');
    bob = await buildUser(server, admin, 'user', 'Bob');
    [chatModel, openaiImages, comfy, a1111] = await Promise.all([
      startFakeOpenAI({ key: 'sk-chat', models: ['gpt-fake'] }),
      startFakeOpenAIImages({ key: 'sk-images-secret-1234' }),
      startFakeComfyUI({ key: 'comfy-key' }),
      startFakeAutomatic1111({ auth: 'artist:brush' }),
    ]);
    const as = server.as(admin.token);
    expect((await as.post('/compat/config/update', { COMPAT_API_BASE_URLS: [chatModel.url], COMPAT_API_KEYS: ['sk-chat'], COMPAT_API_CONFIGS: {} })).status).toBe(200);
    const off = { ...DEFAULT_TASK_CONFIG, ENABLE_TITLE_GENERATION: false, ENABLE_TAGS_GENERATION: false, ENABLE_FOLLOW_UP_GENERATION: false };
    expect((await as.post('/api/v1/tasks/config/update', off)).status).toBe(200);
    base = (await as.get('/api/v1/images/config')).body;
  });
  afterAll(async () => {
    await server?.close();
    await Promise.all([chatModel, openaiImages, comfy, a1111].map((f) => f?.close()));
  });
  beforeEach(() => chatModel.reset());

  it('starts off, keeps its settings in Open WebUI’s shape with keys masked and in the secret store', async () => {
    expect(base).toMatchObject({ ENABLE_IMAGE_GENERATION: false, IMAGE_GENERATION_ENGINE: 'openai', IMAGE_SIZE: '512x512', IMAGES_OPENAI_API_KEY: '' });
    const generate = await server.as(alice.token).post('/api/v1/images/generations', { prompt: 'a cat' });
    expect(generate.status).toBe(403);
    expect(generate.body.detail).toMatch(/turned off/);

    const saved = await configure({ ENABLE_IMAGE_GENERATION: true, IMAGES_OPENAI_API_BASE_URL: openaiImages.url, IMAGES_OPENAI_API_KEY: 'sk-images-secret-1234', IMAGE_GENERATION_MODEL: 'dall-e-3' });
    expect(saved.IMAGES_OPENAI_API_KEY).toBe('••••••••1234');
    const rows = await server.services.db('config').select('*');
    expect(JSON.stringify(rows)).not.toContain('sk-images-secret');
    expect((await server.services.config.get(ImagesSection)).IMAGES_OPENAI_API_KEY).toBe('');
    expect(await server.services.secrets.get('images:openai-key')).toBe('sk-images-secret-1234');
    // Posting the masked value back (as a settings form does) keeps the key.
    await configure({ ...saved });
    expect(await server.services.secrets.get('images:openai-key')).toBe('sk-images-secret-1234');
    base = { ...saved };
    expect((await server.as(alice.token).get('/api/config')).body.features).toMatchObject({ enable_image_generation: true, enable_image_edit: true });
  });

  it('refuses bad settings and non-admins', async () => {
    expect((await server.as(alice.token).get('/api/v1/images/config')).status).toBe(403);
    expect((await server.as(alice.token).post('/api/v1/images/config/update', base)).status).toBe(403);
    expect((await server.anon.get('/api/v1/images/config')).status).toBe(401);
    for (const bad of [{ IMAGE_SIZE: 'huge' }, { IMAGE_GENERATION_ENGINE: 'midjourney' }, { IMAGE_STEPS: -1 }, { COMFYUI_BASE_URL: 'file:///etc' }, { COMFYUI_WORKFLOW: '{not json' }]) {
      const res = await server.as(admin.token).post('/api/v1/images/config/update', { ...base, ...bad });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.detail).toBeTruthy();
    }
  });

  it('generates through OpenAI-compatible images, stored as the caller’s files', async () => {
    const res = await server.as(alice.token).post('/api/v1/images/generations', { prompt: 'a blue square', n: 2, size: '256x256' });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(2);
    expect(res.body[0].url).toMatch(/^\/api\/v1\/files\/.+\/content$/);
    await colourOf(res.body[0].url);
    expect((await server.as(bob.token).get(res.body[0].url)).status).toBe(403);
    const sent = openaiImages.requests.at(-1)!;
    expect(sent.headers.authorization).toBe('Bearer sk-images-secret-1234');
    expect(sent.body).toMatchObject({ model: 'dall-e-3', prompt: 'a blue square', n: 2, size: '256x256', response_format: 'b64_json' });
    expect((await server.as(alice.token).get('/api/v1/images/models')).body.map((m: { id: string }) => m.id)).toContain('dall-e-3');
  });

  it('says what the engine said when it fails, and refuses bad requests', async () => {
    openaiImages.failNext(400, 'Your request was rejected by the safety system.');
    const failed = await server.as(alice.token).post('/api/v1/images/generations', { prompt: 'something' });
    expect(failed.status).toBe(400);
    expect(failed.body.detail).toMatch(/rejected by the safety system/);
    for (const bad of [{}, { prompt: '' }, { prompt: 'x', n: 0 }, { prompt: 'x', n: 50 }, { prompt: 'x', size: '10x' }, { prompt: 42 }]) {
      expect((await server.as(alice.token).post('/api/v1/images/generations', bad)).status, JSON.stringify(bad)).toBe(400);
    }
    expect((await server.anon.post('/api/v1/images/generations', { prompt: 'x' })).status).toBe(401);
  });

  it('edits one of the caller’s images, never someone else’s', async () => {
    const [made] = (await server.as(alice.token).post('/api/v1/images/generations', { prompt: 'a blue square' })).body;
    const edited = await server.as(alice.token).post('/api/v1/images/edit', { image: made.url, prompt: 'make it bigger' });
    expect(edited.status).toBe(200);
    const sent = openaiImages.requests.at(-1)!;
    expect(sent.path).toBe('/v1/images/edits');
    expect(sent.body.prompt).toBe('make it bigger');
    expect(sent.body.files[0]).toMatchObject({ field: 'image', type: 'image/png' });
    expect((await server.as(bob.token).post('/api/v1/images/edit', { image: made.id, prompt: 'steal it' })).status).toBe(403);
  });

  it('generates through ComfyUI: the workflow’s mapped inputs set, progress over its socket, the SaveImage output fetched', async () => {
    await configure({ IMAGE_GENERATION_ENGINE: 'comfyui', COMFYUI_BASE_URL: comfy.url, COMFYUI_API_KEY: 'comfy-key', IMAGE_GENERATION_MODEL: 'dreamshaper_8.safetensors', IMAGE_STEPS: 12 });
    const res = await server.as(alice.token).post('/api/v1/images/generations', { prompt: 'a red square', size: '640x384' });
    expect(res.status, res.text).toBe(200);
    await colourOf(res.body[0].url);
    const queued = comfy.requests.find((r) => r.path === '/prompt')!;
    expect(queued.headers.authorization).toBe('Bearer comfy-key');
    const workflow = queued.body.prompt;
    expect(workflow['6'].inputs.text).toBe('a red square');
    expect(workflow['4'].inputs.ckpt_name).toBe('dreamshaper_8.safetensors');
    expect(workflow['5'].inputs).toMatchObject({ width: 640, height: 384, batch_size: 1 });
    expect(workflow['3'].inputs.steps).toBe(12);
    expect(comfy.requests.some((r) => r.path.startsWith('/history/'))).toBe(true);
    // In a chat, ComfyUI's progress reaches the person.
    chatModel.replyOnce({ text: '{"prompt": "a red square"}' });
    chatModel.replyOnce({ text: 'Done.' });
    const chat = await server.as(alice.token).post('/api/chat/completions', { model: 'gpt-fake', stream: true, messages: [{ role: 'user', content: 'Draw a red square' }], features: { image_generation: true } });
    const told = sseFrames(chat.text).filter((e) => e.status?.action === 'image_generation');
    expect(told.some((e) => typeof e.status.progress === 'number')).toBe(true);
    expect((await server.as(alice.token).get('/api/v1/images/models')).body).toEqual([
      { id: 'dreamshaper_8.safetensors', name: 'dreamshaper_8.safetensors' },
      { id: 'sd_xl_base_1.0.safetensors', name: 'sd_xl_base_1.0.safetensors' },
    ]);

    // An admin's own workflow with its own node mapping.
    const own = { '1': { class_type: 'CLIPTextEncode', inputs: { text: '' } }, '2': { class_type: 'SaveImage', inputs: { filename_prefix: 'Parley' } } };
    await configure({ COMFYUI_WORKFLOW: JSON.stringify(own), COMFYUI_WORKFLOW_NODES: [{ type: 'prompt', key: 'text', node_ids: ['1'] }] });
    expect((await server.as(alice.token).post('/api/v1/images/generations', { prompt: 'mine' })).status).toBe(200);
    expect(comfy.requests.filter((r) => r.path === '/prompt').at(-1)!.body.prompt['1'].inputs.text).toBe('mine');
    // A mapping naming a node the workflow lacks is refused with a clear message.
    await configure({ COMFYUI_WORKFLOW_NODES: [{ type: 'prompt', key: 'text', node_ids: ['77'] }] });
    const broken = await server.as(alice.token).post('/api/v1/images/generations', { prompt: 'x' });
    expect(broken.status).toBe(400);
    expect(broken.body.detail).toMatch(/node 77/);
    await configure({ COMFYUI_WORKFLOW: '', COMFYUI_WORKFLOW_NODES: [] });

    // Editing uploads the image first and runs the image-to-image workflow.
    const edited = await server.as(alice.token).post('/api/v1/images/edit', { image: res.body[0].url, prompt: 'paint it' });
    expect(edited.status).toBe(200);
    expect(comfy.requests.some((r) => r.path === '/upload/image')).toBe(true);
    const editFlow = comfy.requests.filter((r) => r.path === '/prompt').at(-1)!.body.prompt;
    expect(editFlow['10']).toMatchObject({ class_type: 'LoadImage' });
    expect(String(editFlow['10'].inputs.image)).toMatch(/\.png$/);
  });

  it('generates through Automatic1111 with its auth, the model chosen per request', async () => {
    await configure({ IMAGE_GENERATION_ENGINE: 'automatic1111', AUTOMATIC1111_BASE_URL: a1111.url, AUTOMATIC1111_API_AUTH: 'artist:brush', IMAGE_GENERATION_MODEL: 'sdxl.safetensors [def456]' });
    const res = await server.as(alice.token).post('/api/v1/images/generations', { prompt: 'a green square', negative_prompt: 'blur' });
    expect(res.status).toBe(200);
    await colourOf(res.body[0].url);
    const sent = a1111.requests.find((r) => r.path === '/sdapi/v1/txt2img')!;
    expect(sent.headers.authorization).toBe(`Basic ${Buffer.from('artist:brush').toString('base64')}`);
    expect(sent.body).toMatchObject({ prompt: 'a green square', negative_prompt: 'blur', width: 512, height: 512, batch_size: 1, override_settings: { sd_model_checkpoint: 'sdxl.safetensors [def456]' } });
    expect((await server.as(alice.token).get('/api/v1/images/models')).body[0]).toEqual({ id: 'v1-5-pruned.safetensors [abc123]', name: 'v1-5-pruned' });
    const edited = await server.as(alice.token).post('/api/v1/images/edit', { image: res.body[0].id, prompt: 'sharper' });
    expect(edited.status).toBe(200);
    expect(a1111.requests.at(-1)!.body.init_images).toHaveLength(1);
    // Back to OpenAI for what follows.
    await configure({ IMAGE_GENERATION_ENGINE: 'openai' });
  });

  it('makes the image in a chat before the model answers: progress, the step with the image, the model told', async () => {
    chatModel.replyOnce({ text: '{"prompt": "a lighthouse at dusk, oil painting"}' });
    chatModel.replyOnce({ text: 'Here is your lighthouse.' });
    const res = await server.as(alice.token).post('/api/chat/completions', {
      model: 'gpt-fake',
      stream: true,
      messages: [{ role: 'user', content: 'Draw me a lighthouse' }],
      features: { image_generation: true },
    });
    expect(res.status).toBe(200);
    const events = sseFrames(res.text);
    const statuses = events.filter((e) => e.status).map((e) => e.status);
    expect(statuses.map((s) => s.action)).toContain('image_generation');
    expect(statuses.at(-1)).toMatchObject({ action: 'image_generation', done: true });
    const step = events.find((e) => e.tool_step)!.tool_step;
    expect(step).toMatchObject({ kind: 'image', name: 'generate_image', error: null, result: 'a lighthouse at dusk, oil painting' });
    await colourOf(step.files[0].url);
    expect(openaiImages.requests.at(-1)!.body.prompt).toBe('a lighthouse at dusk, oil painting');
    const answer = chatModel.chats().at(-1)!.body.messages;
    expect(answer[0].role).toBe('system');
    expect(answer[0].content).toMatch(/An image was generated for the user/);
    expect(events.map((e) => e.choices?.[0]?.delta?.content ?? '').join('')).toBe('Here is your lighthouse.');
  });

  it('tells the model and the person when the engine fails in a chat, and refuses the toggle without the permission', async () => {
    openaiImages.failNext(500, 'The engine is overloaded');
    chatModel.replyOnce({ text: '{"prompt": "x"}' });
    chatModel.replyOnce({ text: 'Sorry.' });
    const res = await server.as(alice.token).post('/api/chat/completions', { model: 'gpt-fake', messages: [{ role: 'user', content: 'Draw' }], features: { image_generation: true } });
    expect(res.status).toBe(200);
    expect(chatModel.chats().at(-1)!.body.messages[0].content).toMatch(/failed: .*overloaded/);

    const defaults = (await server.as(admin.token).get('/api/v1/users/default/permissions')).body;
    await server.as(admin.token).post('/api/v1/users/default/permissions', { ...defaults, features: { ...defaults.features, image_generation: false } });
    try {
      expect((await server.as(alice.token).post('/api/v1/images/generations', { prompt: 'x' })).status).toBe(403);
      expect((await server.as(alice.token).post('/api/chat/completions', { model: 'gpt-fake', messages: [{ role: 'user', content: 'Draw' }], features: { image_generation: true } })).status).toBe(403);
      const v1 = await server.as(alice.token).post('/v1/images/generations', { prompt: 'x' });
      expect(v1.status).toBe(403);
      expect(v1.body.error.message).toMatch(/features\.image_generation/);
      // Admins hold every permission.
      expect((await server.as(admin.token).post('/api/v1/images/generations', { prompt: 'x' })).status).toBe(200);
    } finally {
      await server.as(admin.token).post('/api/v1/users/default/permissions', defaults);
    }
  });

  it('answers /v1/images/generations in OpenAI’s shape, for the openai SDK with an API key', async () => {
    const key = (await server.as(alice.token).post('/api/v1/auths/api_key')).body.api_key as string;
    const client = new OpenAI({ apiKey: key, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const answer = await client.images.generate({ prompt: 'a blue square', n: 1, size: '256x256', response_format: 'b64_json' });
    expect(answer.data?.[0]?.b64_json).toBeTruthy();
    expect(Buffer.from(answer.data![0]!.b64_json!, 'base64').subarray(0, 4).toString('hex')).toBe(PNG_MAGIC);
    const asUrl = await client.images.generate({ prompt: 'a blue square', response_format: 'url' });
    expect(asUrl.data?.[0]?.url).toMatch(/^\/api\/v1\/files\/.+\/content$/);
    await expect(client.images.generate({ prompt: '' })).rejects.toMatchObject({ status: 400 });
  });
});
