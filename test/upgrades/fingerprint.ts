/**
 * What an office's data looks like through the HTTP API, as counts and SHA-256 checksums of the
 * fields every Parley version since the first round answers the same way. The fixture script
 * records it from the earlier version; the upgrade test computes it again with today's Parley and
 * expects it equal. Projections keep only what a person would miss (names, contents, members,
 * settings, keys), never fields later versions added.
 */
import { createHash } from 'node:crypto';
import { createClient, type ApiClient } from '../helpers/client';
import { CHANGED_SETTINGS, type Population } from './populate';

export interface Fingerprint {
  counts: Record<Part, number>;
  checksums: Record<Part, string>;
  /** The projected data the checksums are of, so a difference reads as a diff of what changed. */
  values: Record<Part, unknown>;
}

export type Part = 'users' | 'groups' | 'settings' | 'models' | 'api_keys' | 'chats' | 'messages' | 'files' | 'knowledge' | 'search';

function sha256(value: unknown): string {
  return createHash('sha256').update(typeof value === 'string' ? value : JSON.stringify(value)).digest('hex');
}

async function json<T>(client: ApiClient, path: string): Promise<T> {
  const res = await client.get<T>(path);
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${res.text.slice(0, 300)}`);
  return res.body;
}

const byKey = <T>(key: (item: T) => string) => (a: T, b: T) => key(a).localeCompare(key(b));

/** Reads the fingerprint of the data `population` made, through the API at `url`. */
export async function fingerprint(url: string, population: Population): Promise<Fingerprint> {
  const as = (email: string) => createClient(url, population.tokens[email]);
  const adminEmail = population.users.find((u) => u.role === 'admin')!.email;
  const admin = as(adminEmail);
  const parts = {} as Record<Part, { count: number; value: unknown }>;

  const usersBody = await json<{ users: Array<{ id: string; email: string; name: string; role: string }> } | Array<{ id: string; email: string; name: string; role: string }>>(admin, '/api/v1/users/all');
  const users = (Array.isArray(usersBody) ? usersBody : usersBody.users).map(({ id, email, name, role }) => ({ id, email, name, role })).sort(byKey((u) => u.email));
  parts.users = { count: users.length, value: users };
  const idOf = new Map(users.map((u) => [u.email, u.id]));

  const groups = (await json<Array<{ id: string; name: string; description: string; user_ids: string[] }>>(admin, '/api/v1/groups/'))
    .map(({ id, name, description, user_ids }) => ({ id, name, description, user_ids: [...user_ids].sort() }))
    .sort(byKey((g) => g.name));
  parts.groups = { count: groups.length, value: groups };

  const auth = await json<Record<string, unknown>>(admin, '/api/v1/auths/admin/config');
  const retrieval = await json<Record<string, unknown>>(admin, '/api/v1/retrieval/config');
  const compat = await json<Record<string, unknown>>(admin, '/compat/config');
  const settings = {
    auth: Object.fromEntries(Object.keys(CHANGED_SETTINGS.auth).map((k) => [k, auth[k]])),
    retrieval: Object.fromEntries(Object.keys(CHANGED_SETTINGS.retrieval).map((k) => [k, retrieval[k]])),
    // The provider key comes from the secret store: it survives only if the store does.
    compat: Object.fromEntries(Object.keys(CHANGED_SETTINGS.compat).map((k) => [k, compat[k]])),
  };
  parts.settings = { count: Object.values(settings).reduce((n, section) => n + Object.keys(section).length, 0), value: settings };

  const models = (await json<Array<{ id: string; name: string; base_model_id: string | null; params?: { system?: string }; meta?: { description?: string }; access_control?: unknown }>>(admin, '/api/v1/models/list'))
    .filter((m) => m.base_model_id !== null)
    .map((m) => ({ id: m.id, name: m.name, base_model_id: m.base_model_id, system: m.params?.system ?? null, description: m.meta?.description ?? null, access_control: m.access_control ?? null }))
    .sort(byKey((m) => m.id));
  parts.models = { count: models.length, value: models };

  const keys: Array<{ owner: string; key: string; authenticates_as: string }> = [];
  for (const [email, key] of Object.entries(population.apiKeys).sort()) {
    const stored = (await json<{ api_key: string | null }>(as(email), '/api/v1/auths/api_key')).api_key;
    const me = await json<{ id: string }>(createClient(url, key), '/api/v1/auths/');
    keys.push({ owner: email, key: sha256(stored ?? ''), authenticates_as: me.id === idOf.get(email) ? email : me.id });
  }
  parts.api_keys = { count: keys.length, value: keys };

  const chats: unknown[] = [];
  const messages: unknown[] = [];
  for (const owner of [...new Set(population.users.filter((u) => u.role !== 'pending').map((u) => u.email))].sort()) {
    const client = as(owner);
    const listed = [
      ...(await json<Array<{ id: string }>>(client, '/api/v1/chats/?page=1')),
      ...(await json<Array<{ id: string }>>(client, '/api/v1/chats/pinned?page=1')),
      ...(await json<Array<{ id: string }>>(client, '/api/v1/chats/archived?page=1')),
    ];
    for (const id of [...new Set(listed.map((c) => c.id))].sort()) {
      const chat = await json<{ id: string; title: string; pinned: boolean; archived: boolean; current_message_id: string | null; history: { messages: Record<string, { id: string; parent_id: string | null; role: string; content: string }> } }>(client, `/api/v1/chats/${id}`);
      const tree = Object.values(chat.history.messages)
        .map(({ id: messageId, parent_id, role, content }) => ({ id: messageId, parent_id, role, content }))
        .sort(byKey((m) => m.id));
      chats.push({ owner, id: chat.id, title: chat.title, pinned: chat.pinned, archived: chat.archived, current_message_id: chat.current_message_id });
      messages.push(...tree.map((m) => ({ chat: chat.id, ...m })));
    }
  }
  parts.chats = { count: chats.length, value: chats };
  parts.messages = { count: messages.length, value: messages };

  const files: unknown[] = [];
  for (const file of population.files) {
    const client = as(file.owner);
    const meta = await json<{ id: string; filename: string; size: number; mime_type: string }>(client, `/api/v1/files/${file.id}`);
    const content = await fetch(`${url}/api/v1/files/${file.id}/content`, { headers: { authorization: `Bearer ${population.tokens[file.owner]}` } });
    if (content.status !== 200) throw new Error(`file ${file.filename}: ${content.status}`);
    files.push({ id: meta.id, filename: meta.filename, size: meta.size, mime_type: meta.mime_type, sha256: sha256(Buffer.from(await content.arrayBuffer()).toString('base64')) });
  }
  parts.files = { count: files.length, value: files };

  const knowledge: unknown[] = [];
  for (const owner of [...new Set(population.knowledge.map((k) => k.owner))].sort()) {
    const client = as(owner);
    for (const base of (await json<Array<{ id: string; user_id: string }>>(client, '/api/v1/knowledge/')).filter((k) => k.user_id === idOf.get(owner)).sort(byKey((k) => k.id))) {
      const detail = await json<{ id: string; name: string; description: string; files: Array<{ id: string; name: string; status: string }> }>(client, `/api/v1/knowledge/${base.id}`);
      knowledge.push({ id: detail.id, name: detail.name, description: detail.description, files: detail.files.map(({ id, name, status }) => ({ id, name, status })).sort(byKey((f) => f.id)) });
    }
  }
  parts.knowledge = { count: knowledge.length, value: knowledge };

  // The best passage of each search: its document and its text (rankings below the first may
  // legitimately move as retrieval improves; the right document first must not).
  const search: unknown[] = [];
  for (const s of population.searches) {
    const res = await as(s.owner).post<{ documents: string[][]; metadatas: Array<Array<Record<string, unknown>>> }>('/api/v1/retrieval/query/collection', {
      collection_names: [s.knowledge_id],
      query: s.query,
      k: 3,
      relevance_threshold: 0,
    });
    if (res.status !== 200) throw new Error(`search '${s.query}': ${res.status} ${res.text.slice(0, 300)}`);
    const top = res.body.metadatas[0]?.[0] ?? {};
    search.push({ query: s.query, file_id: top.file_id ?? null, text: sha256(res.body.documents[0]?.[0] ?? '') });
  }
  parts.search = { count: search.length, value: search };

  const names = Object.keys(parts).sort() as Part[];
  return {
    counts: Object.fromEntries(names.map((n) => [n, parts[n].count])) as Record<Part, number>,
    checksums: Object.fromEntries(names.map((n) => [n, sha256(parts[n].value)])) as Record<Part, string>,
    values: Object.fromEntries(names.map((n) => [n, parts[n].value])) as Record<Part, unknown>,
  };
}

/**
 * Chat search on today's Parley finds upgraded chats by words of their messages (their search
 * indexes are filled by migrations for messages written before them). Answers, per word, the
 * titles of the chats found; earlier versions had no chat search, so the expectation comes from
 * the data itself: each word below occurs in one chat of its owner.
 */
export async function chatSearchTitles(url: string, population: Population): Promise<Record<string, string[]>> {
  const words: Array<[owner: string, word: string]> = [
    ['alice@example.com', 'orchard'],
    ['alice@example.com', 'ferry'],
    ['bob@example.com', 'cafe'],
    ['admin@example.com', 'receipt'],
  ];
  const found: Record<string, string[]> = {};
  for (const [owner, word] of words) {
    const res = await createClient(url, population.tokens[owner]).get<Array<{ title: string }>>(`/api/v1/chats/search?text=${encodeURIComponent(word)}`);
    if (res.status !== 200) throw new Error(`chat search '${word}': ${res.status} ${res.text.slice(0, 200)}`);
    found[word] = res.body.map((c) => c.title).sort();
  }
  return found;
}

/** What chatSearchTitles must answer for the population's chats. */
export const CHAT_SEARCH_EXPECTED: Record<string, string[]> = {
  orchard: ['Pruning plan'],
  ferry: ['Ferry times'],
  // Accents folded: the answer says "café".
  cafe: ['Comet watch'],
  receipt: ['Expenses'],
};
