/**
 * Fills a running Parley (any version since the first round) with an office's worth of data
 * through its HTTP API only: users of every role, groups, settings, a provider connection with a
 * key, custom models, an API key, uploaded files, knowledge bases with their documents indexed,
 * and chats with branches and an attachment. Used by scripts/make-upgrade-fixture.ts against an
 * earlier Parley; what it returns (credentials and ids) is recorded in the fixture.
 */
import { createClient, type ApiClient } from '../helpers/client';

/** What the test needs to read the data back: who can sign in, and what was made. */
export interface Population {
  users: Array<{ email: string; password: string; role: 'admin' | 'user' | 'pending' }>;
  /** Tokens issued by the earlier version (JWT_EXPIRES_IN is -1): they must keep working. */
  tokens: Record<string, string>;
  /** API keys by owner email. */
  apiKeys: Record<string, string>;
  files: Array<{ id: string; owner: string; filename: string }>;
  knowledge: Array<{ id: string; owner: string; name: string }>;
  chats: Array<{ id: string; owner: string }>;
  /** Searches run on each knowledge base; their answers are part of the fingerprint. */
  searches: Array<{ knowledge_id: string; owner: string; query: string }>;
}

/** Settings the population changes from their defaults (read back by the fingerprint). */
export const CHANGED_SETTINGS = {
  auth: { ENABLE_SIGNUP: false, DEFAULT_USER_ROLE: 'user', JWT_EXPIRES_IN: '-1', ENABLE_MESSAGE_RATING: false },
  retrieval: { TOP_K: 7, CHUNK_SIZE: 600, CHUNK_OVERLAP: 60, HYBRID_BM25_WEIGHT: 0.4 },
  compat: { COMPAT_API_BASE_URLS: ['http://127.0.0.1:9/v1'], COMPAT_API_KEYS: ['sk-fixture-provider-key-kept-in-the-secret-store'] },
} as const;

const PASSWORD = 'fixture-password-1';

/** Documents with words of their own, so each search has one right answer in every version. */
export const DOCUMENTS: Record<string, string> = {
  'orchard.md': [
    '# The orchard',
    'The apple orchard behind the office has forty trees. Pruning happens in February, before the buds swell.',
    'Cider apples (Dabinett, Kingston Black) are pressed in October; the pomace goes to the compost heap.',
    'Grafting scions are cut in January and stored in damp sawdust until spring grafting in April.',
  ].join('\n\n'),
  'harbour.txt': [
    'Harbour notes. The ferry leaves the north quay at 07:40 and 17:10 on weekdays.',
    'At spring tide the slipway floods; moor the dinghy on the outer pontoon.',
    'The harbourmaster keeps the tide tables and the mooring register in the lighthouse annex.',
  ].join('\n'),
  'observatory.md': [
    '## Observatory log',
    'The refracting telescope was collimated on 3 March. The comet was visible low in the western sky after dusk.',
    'Observers book the dome through the astronomy club; the spectrograph needs a day of cooling before use.',
  ].join('\n\n'),
  'handbook.md': [
    '# Staff handbook',
    'Holiday requests go to the office manager two weeks ahead. Expense claims need a receipt and a project code.',
    'The kitchen rota changes every Monday; the dishwasher tablets are in the left cupboard.',
  ].join('\n\n'),
};

function ok<T>(res: { status: number; body: T; text: string }, what: string): T {
  if (res.status !== 200) throw new Error(`${what}: ${res.status} ${res.text.slice(0, 300)}`);
  return res.body;
}

async function signin(anon: ApiClient, email: string, password: string): Promise<string> {
  return ok(await anon.post<{ token: string }>('/api/v1/auths/signin', { email, password }), `sign in ${email}`).token;
}

async function upload(client: ApiClient, filename: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([DOCUMENTS[filename]!], { type: filename.endsWith('.md') ? 'text/markdown' : 'text/plain' }), filename);
  const rows = ok(await client.raw<Array<{ id: string }>>('POST', '/api/v1/chats/attachment/upload', form), `upload ${filename}`);
  return rows[0]!.id;
}

async function waitForIngestion(client: ApiClient, knowledgeId: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const detail = ok(await client.get<{ files: Array<{ name: string; status: string; error?: string }> }>(`/api/v1/knowledge/${knowledgeId}`), 'knowledge detail');
    const failed = detail.files.find((f) => f.status === 'failed');
    if (failed) throw new Error(`ingestion of ${failed.name} failed: ${failed.error ?? ''}`);
    if (detail.files.every((f) => f.status === 'completed')) return;
    if (Date.now() > deadline) throw new Error('ingestion did not finish in 2 minutes');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A chat made of turns (user, assistant, …); `edit` re-asks the first question as a second branch. */
async function chat(client: ApiClient, title: string, turns: string[], options: { edit?: string; pin?: boolean; archive?: boolean; attach?: string } = {}): Promise<string> {
  const id = ok(await client.post<{ id: string }>('/api/v1/chats/new', { title }), `chat ${title}`).id;
  let first: string | undefined;
  for (const [i, content] of turns.entries()) {
    const message = ok(await client.post<{ id: string }>(`/api/v1/chats/${id}/messages`, { role: i % 2 === 0 ? 'user' : 'assistant', content }), 'message');
    first ??= message.id;
  }
  if (options.edit && first) ok(await client.post(`/api/v1/chats/${id}/messages/${first}`, { content: options.edit }), 'edit');
  if (options.pin) ok(await client.post(`/api/v1/chats/${id}/pin`, { pinned: true }), 'pin');
  if (options.archive) ok(await client.post(`/api/v1/chats/${id}/archive`, { archived: true }), 'archive');
  if (options.attach) ok(await client.patch(`/api/v1/chats/${id}/attachments`, { attachment_ids: [options.attach] }), 'attach');
  return id;
}

/** Populates a fresh Parley at `url` (no account yet). */
export async function populate(url: string): Promise<Population> {
  const anon = createClient(url);
  const adminEmail = 'admin@example.com';
  ok(await anon.post('/api/v1/auths/signup', { name: 'Ada Admin', email: adminEmail, password: PASSWORD }), 'admin sign-up');
  let admin = createClient(url, await signin(anon, adminEmail, PASSWORD));
  // Sessions that never expire, so the fixture's tokens still work whenever the test runs.
  ok(await admin.post('/api/v1/auths/admin/config', CHANGED_SETTINGS.auth), 'auth config');
  const tokens: Record<string, string> = { [adminEmail]: await signin(anon, adminEmail, PASSWORD) };
  admin = createClient(url, tokens[adminEmail]);

  const users: Population['users'] = [{ email: adminEmail, password: PASSWORD, role: 'admin' }];
  const ids: Record<string, string> = {};
  for (const [name, email, role] of [
    ['Alice Analyst', 'alice@example.com', 'user'],
    ['Bob Builder', 'bob@example.com', 'user'],
    ['Pat Pending', 'pat@example.com', 'pending'],
  ] as const) {
    ids[email] = ok(await admin.post<{ id: string }>('/api/v1/auths/add', { name, email, password: PASSWORD, role }), `add ${email}`).id;
    users.push({ email, password: PASSWORD, role });
    tokens[email] = await signin(anon, email, PASSWORD);
  }
  const alice = createClient(url, tokens['alice@example.com']);
  const bob = createClient(url, tokens['bob@example.com']);

  const research = ok(await admin.post<{ id: string }>('/api/v1/groups/create', { name: 'Research', description: 'Field work and the observatory' }), 'group').id;
  ok(await admin.post(`/api/v1/groups/id/${research}/update`, { user_ids: [ids['alice@example.com'], ids['bob@example.com']] }), 'group members');
  const managers = ok(await admin.post<{ id: string }>('/api/v1/groups/create', { name: 'Managers', description: '' }), 'group').id;
  ok(await admin.post(`/api/v1/groups/id/${managers}/users/add`, { user_ids: [ids['bob@example.com']] }), 'group add');

  ok(await admin.post('/api/v1/retrieval/config/update', CHANGED_SETTINGS.retrieval), 'retrieval config');
  ok(await admin.post('/compat/config/update', CHANGED_SETTINGS.compat), 'provider connection');
  ok(
    await admin.post('/api/v1/models/create', {
      id: 'research-assistant',
      name: 'Research assistant',
      base_model_id: 'gpt-fixture',
      params: { system: 'Answer from the Research group notes, and cite them.' },
      meta: { description: 'Knows the orchard, the harbour and the observatory' },
      access_control: { read: { group_ids: [research], user_ids: [] }, write: { group_ids: [], user_ids: [] } },
    }),
    'model',
  );
  ok(await admin.post('/api/v1/models/create', { id: 'terse', name: 'Terse', base_model_id: 'gpt-fixture', params: { system: 'One sentence answers.' }, meta: {} }), 'model');

  const apiKeys: Record<string, string> = {
    'alice@example.com': ok(await alice.post<{ api_key: string }>('/api/v1/auths/api_key'), 'api key').api_key,
    [adminEmail]: ok(await admin.post<{ api_key: string }>('/api/v1/auths/api_key'), 'api key').api_key,
  };

  const files: Population['files'] = [];
  for (const filename of ['orchard.md', 'harbour.txt', 'observatory.md']) files.push({ id: await upload(alice, filename), owner: 'alice@example.com', filename });
  files.push({ id: await upload(admin, 'handbook.md'), owner: adminEmail, filename: 'handbook.md' });

  const knowledge: Population['knowledge'] = [];
  const fieldNotes = ok(await alice.post<{ id: string }>('/api/v1/knowledge/create', { name: 'Field notes', description: 'Orchard, harbour and observatory' }), 'knowledge').id;
  for (const file of files.filter((f) => f.owner === 'alice@example.com')) ok(await alice.post(`/api/v1/knowledge/${fieldNotes}/file/add`, { file_id: file.id }), 'knowledge file');
  knowledge.push({ id: fieldNotes, owner: 'alice@example.com', name: 'Field notes' });
  const handbook = ok(await admin.post<{ id: string }>('/api/v1/knowledge/create', { name: 'Handbook', description: 'How the office works' }), 'knowledge').id;
  ok(await admin.post(`/api/v1/knowledge/${handbook}/file/add`, { file_id: files[3]!.id }), 'knowledge file');
  knowledge.push({ id: handbook, owner: adminEmail, name: 'Handbook' });
  await waitForIngestion(alice, fieldNotes);
  await waitForIngestion(admin, handbook);

  const chats: Population['chats'] = [];
  const add = async (owner: string, client: ApiClient, ...args: Parameters<typeof chat> extends [unknown, ...infer R] ? R : never) => chats.push({ id: await chat(client, ...args), owner });
  await add('alice@example.com', alice, 'Pruning plan', ['When do we prune the apple trees?', 'In February, before the buds swell.', 'And grafting?', 'Cut scions in January, graft in April.'], { edit: 'When should the orchard be pruned?', pin: true });
  await add('alice@example.com', alice, 'Ferry times', ['When does the morning ferry leave?', 'At 07:40 from the north quay.'], { attach: files[1]!.id });
  await add('alice@example.com', alice, 'Old questions', ['Where are the tide tables?', 'In the lighthouse annex.'], { archive: true });
  await add('bob@example.com', bob, 'Comet watch', ['Can I see the comet tonight?', 'Low in the western sky after dusk — café open till late, naïve question welcome. 🌠']);
  await add(adminEmail, admin, 'Expenses', ['What does an expense claim need?', 'A receipt and a project code.']);

  const searches: Population['searches'] = [
    { knowledge_id: fieldNotes, owner: 'alice@example.com', query: 'apple orchard pruning in February' },
    { knowledge_id: fieldNotes, owner: 'alice@example.com', query: 'ferry from the north quay at spring tide' },
    { knowledge_id: fieldNotes, owner: 'alice@example.com', query: 'telescope comet western sky' },
    { knowledge_id: handbook, owner: adminEmail, query: 'expense claims receipt' },
  ];
  return { users, tokens, apiKeys, files, knowledge, chats, searches };
}
