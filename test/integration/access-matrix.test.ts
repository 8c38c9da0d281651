import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listRoutes } from '../../server/platform/http/route-table';
import { buildUser, signupAdmin, type TestUser } from '../helpers/builders';
import { manualClock } from '../helpers/clock';
import { testingOnPostgres } from '../helpers/postgres';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * One row per route of the service × eight kinds of caller. A route mounted without a row fails
 * the first test, so every new endpoint gets its access rules written down here.
 * "ok" means the guard let the caller through: the answer is neither 401 nor 403 nor a 5xx
 * (an empty body may still be refused with 400/404/422 after the guard).
 */
type Caller = 'none' | 'bad' | 'expired' | 'pending' | 'user' | 'other' | 'admin' | 'apikey';
const CALLERS: Caller[] = ['none', 'bad', 'expired', 'pending', 'apikey', 'user', 'other', 'admin'];
type Expect = number | 'ok';

/** public: anyone; session: any signed-in account incl. pending; user: user|admin; admin: admin only; owned: user's resource. */
type Access = 'public' | 'session' | 'user' | 'admin' | 'owned';

interface Row {
  access: Access;
  /** Fills path parameters; called once per caller. */
  path?: (r: Resources) => Promise<string>;
  /** Create fresh resources for each caller (the route deletes or consumes them). */
  fresh?: boolean;
  /** The route spends the caller's credentials (sign-out, key rotation): sign everyone in again after it. */
  spends?: boolean;
  /** The JSON body to send (default `{}`). */
  body?: unknown | ((r: Resources) => Promise<unknown>);
  /** Per-caller statuses that differ from the access class. */
  over?: Partial<Record<Caller, Expect>>;
}

function classExpect(access: Access, caller: Caller): Expect {
  if (access === 'public') return 'ok';
  if (caller === 'none' || caller === 'bad' || caller === 'expired') return 401;
  if (access === 'session') return 'ok';
  if (caller === 'pending') return 403;
  if (access === 'admin') return caller === 'admin' ? 'ok' : 403;
  return 'ok';
}

let server: TestServer;
let admin: TestUser;

/** Resources owned by `user` (or made by the admin where only admins may), created on first use. */
/** Stand-in backups made so far (PostgreSQL runs). */
let standIns = 0;

class Resources {
  private cache = new Map<string, Promise<string>>();
  constructor(private readonly owner: () => TestUser) {}
  /** The owner's current token. */
  ownerToken = () => this.owner().token;
  private once(key: string, make: () => Promise<string>): Promise<string> {
    if (!this.cache.has(key)) this.cache.set(key, make());
    return this.cache.get(key)!;
  }
  private async made(res: Promise<{ status: number; body: any; text: string }>, pick: (b: any) => string): Promise<string> {
    const r = await res;
    if (r.status !== 200) throw new Error(`setup failed: ${r.status} ${r.text}`);
    return pick(r.body);
  }
  chat = () => this.once('chat', () => this.made(server.as(this.owner().token).post('/api/v1/chats/new', { title: 'matrix' }), (b) => b.id));
  attachment = () =>
    this.once('attachment', () => {
      const form = new FormData();
      form.append('files', new Blob(['hello'], { type: 'text/plain' }), 'a.txt');
      return this.made(server.as(this.owner().token).raw('POST', '/api/v1/chats/attachment/upload', form), (b) => b[0].id);
    });
  knowledge = () => this.once('knowledge', () => this.made(server.as(this.owner().token).post('/api/v1/knowledge/create', { name: 'kb', description: '' }), (b) => b.id));
  model = () =>
    this.once('model', () => this.made(server.as(this.owner().token).post('/api/v1/models/create', { id: `m-${Math.random().toString(36).slice(2)}`, name: 'M', base_model_id: 'base-model' }), (b) => b.id));
  tool = () =>
    this.once('tool', () =>
      this.made(
        server.as(admin.token).post('/api/v1/tools/create', {
          id: `t_${Math.random().toString(36).slice(2)}`,
          name: 'matrix tool',
          type: 'api',
          config: { url: 'http://127.0.0.1:9/x', method: 'GET', parameters: { type: 'object', properties: {} } },
        }),
        (b) => b.id,
      ),
    );
  group = () => this.once('group', () => this.made(server.as(admin.token).post('/api/v1/groups/create', { name: `g-${Math.random()}` }), (b) => b.id));
  victim = () => this.once('victim', async () => (await buildUser(server, admin)).id);
  folder = () => this.once('folder', () => this.made(server.as(this.owner().token).post('/api/v1/folders/', { name: `f-${Math.random()}` }), (b) => b.id));
  share = () => this.once('share', async () => this.made(server.as(this.owner().token).post(`/api/v1/chats/${await this.chat()}/share`), (b) => b.share_id));
  prompt = () =>
    this.once('prompt', () => this.made(server.as(this.owner().token).post('/api/v1/prompts/create', { command: `p${Math.random().toString(36).slice(2, 10)}`, title: 'P', content: 'c' }), (b) => b.command.slice(1)));
  note = () => this.once('note', () => this.made(server.as(this.owner().token).post('/api/v1/notes/create', { title: 'matrix note', data: { content: { md: 'words' } } }), (b) => b.id));
  memory = () => this.once('memory', () => this.made(server.as(this.owner().token).post('/api/v1/memories/add', { content: 'I like matrices' }), (b) => b.id));
  backup = () =>
    this.once('backup', async () => {
      if (!testingOnPostgres()) return this.made(server.as(admin.token).post('/api/v1/backups'), (b) => b.name);
      // On PostgreSQL the service makes no backups (pg_dump's job): a file in its backups folder
      // stands in, so listing, download and delete are still checked for access.
      const name = `parley-backup-20260101-${String((standIns += 1)).padStart(6, '0')}.zip`;
      mkdirSync(path.join(server.dataDir, 'backups'), { recursive: true });
      writeFileSync(path.join(server.dataDir, 'backups', name), 'stand-in');
      return name;
    });
}

const P = (fn: (r: Resources) => Promise<string> | string) => async (r: Resources) => fn(r);

// The auth routes exist under /api/v1/auths and /auths (the same router).
const AUTH_ROWS: Record<string, Row> = {
  'GET /auths': { access: 'session' },
  'POST /auths/add': { access: 'admin' },
  'GET /auths/admin/config': { access: 'admin' },
  'POST /auths/admin/config': { access: 'admin' },
  'GET /auths/admin/users/:user_id/api_key': { access: 'admin', path: P(async (r) => `/auths/admin/users/${await r.victim()}/api_key`) },
  'DELETE /auths/admin/users/:user_id/api_key': { access: 'admin', path: P(async (r) => `/auths/admin/users/${await r.victim()}/api_key`) },
  'DELETE /auths/api_key': { access: 'user', spends: true },
  'GET /auths/api_key': { access: 'user' },
  'POST /auths/api_key': { access: 'user', spends: true },
  'POST /auths/signin': { access: 'public' },
  'GET /auths/signout': { access: 'session', spends: true },
  // Sign-up is open by default (new accounts are pending); a credential sent along is ignored.
  'POST /auths/signup': { access: 'public', body: { name: 'X', email: 'x@example.com', password: 'password-x' } },
  'POST /auths/update/password': { access: 'user' },
  'POST /auths/update/profile': { access: 'user' },
};

const KNOWLEDGE_ROWS = (base: string): Record<string, Row> => {
  const at = (suffix: string) => P(async (r) => `${base}/${await r.knowledge()}${suffix}`);
  return {
    [`GET ${base}`]: { access: 'user' },
    [`POST ${base}/create`]: { access: 'user' },
    [`GET ${base}/:id`]: { access: 'owned', path: at(''), over: { other: 404 } },
    [`DELETE ${base}/:id/delete`]: { access: 'owned', path: at('/delete'), fresh: true, over: { other: 404 } },
    [`GET ${base}/:id/export`]: { access: 'owned', path: at('/export'), over: { other: 404 } },
    [`POST ${base}/:id/file/add`]: { access: 'owned', path: at('/file/add'), over: { other: 404 } },
    [`GET ${base}/:id/file/:file_id/preview`]: { access: 'owned', path: at('/file/missing/preview'), over: { other: 404 } },
    [`POST ${base}/:id/file/remove`]: { access: 'owned', path: at('/file/remove'), over: { other: 404 } },
    [`GET ${base}/:id/graph/status`]: { access: 'owned', path: at('/graph/status'), over: { other: 404 } },
    [`POST ${base}/:id/graph/toggle`]: { access: 'owned', path: at('/graph/toggle'), body: { enabled: false }, over: { other: 404 } },
    [`GET ${base}/:id/graph/visualize`]: { access: 'owned', path: at('/graph/visualize'), over: { other: 404 } },
    [`POST ${base}/:id/update`]: { access: 'owned', path: at('/update'), over: { other: 404 } },
  };
};

const ROWS: Record<string, Row> = {
  'GET /health': { access: 'public' },
  'GET /user.png': { access: 'public' },
  'GET /static/favicon.png': { access: 'public' },
  'GET /api/config': { access: 'public' },
  'GET /artifact-frame': { access: 'public' },
  'GET /api/models': { access: 'admin' },
  'POST /api/chat/completions': { access: 'user' },
  'POST /api/chat/stop': { access: 'user' },
  ...AUTH_ROWS,
  // The desktop owner's one-time sign-in: a code is the credential, so a missing one is a 400 for everyone.
  'GET /auths/desktop-handover': { access: 'public', over: { none: 400, bad: 400, expired: 400, pending: 400, apikey: 400, user: 400, other: 400, admin: 400 } },
  'GET /api/v1/desktop/setup': { access: 'admin' },
  ...Object.fromEntries(Object.entries(AUTH_ROWS).map(([k, v]) => [k.replace(' /auths', ' /api/v1/auths'), v])),
  ...KNOWLEDGE_ROWS('/api/knowledge'),
  ...KNOWLEDGE_ROWS('/api/v1/knowledge'),

  'GET /api/v1/backups': { access: 'admin' },
  'POST /api/v1/backups': { access: 'admin' },
  'DELETE /api/v1/backups/:name': { access: 'admin', fresh: true, path: P(async (r) => `/api/v1/backups/${await r.backup()}`) },
  'GET /api/v1/backups/:name/download': { access: 'admin', path: P(async (r) => `/api/v1/backups/${await r.backup()}/download`) },

  'GET /api/v1/chats': { access: 'user' },
  'GET /api/v1/chats/archived': { access: 'user' },
  'GET /api/v1/chats/pinned': { access: 'user' },
  'POST /api/v1/chats/new': { access: 'user' },
  'GET /api/v1/chats/:id': { access: 'owned', path: P(async (r) => `/api/v1/chats/${await r.chat()}`), over: { other: 403, admin: 403 } },
  'POST /api/v1/chats/:id': { access: 'owned', path: P(async (r) => `/api/v1/chats/${await r.chat()}`), over: { other: 403, admin: 403 } },
  'DELETE /api/v1/chats/:id': { access: 'owned', fresh: true, path: P(async (r) => `/api/v1/chats/${await r.chat()}`), over: { other: 403, admin: 403 } },
  'POST /api/v1/chats/:id/archive': { access: 'owned', path: P(async (r) => `/api/v1/chats/${await r.chat()}/archive`), over: { other: 403, admin: 403 } },
  'PATCH /api/v1/chats/:id/attachments': { access: 'owned', path: P(async (r) => `/api/v1/chats/${await r.chat()}/attachments`), over: { other: 403, admin: 403 } },
  'POST /api/v1/chats/:id/current': { access: 'owned', path: P(async (r) => `/api/v1/chats/${await r.chat()}/current`), over: { other: 403, admin: 403 } },
  'POST /api/v1/chats/:id/messages': { access: 'owned', path: P(async (r) => `/api/v1/chats/${await r.chat()}/messages`), over: { other: 403, admin: 403 } },
  'POST /api/v1/chats/:id/messages/:message_id': { access: 'owned', path: P(async (r) => `/api/v1/chats/${await r.chat()}/messages/m-1`), over: { other: 403, admin: 403 } },
  'GET /api/v1/configs/suggestions': { access: 'user' },
  'GET /api/v1/connections/status': { access: 'user' },
  'POST /api/v1/configs/suggestions': { access: 'admin', body: { suggestions: [] } },
  'GET /api/v1/chats/:id/ratings': { access: 'owned', path: P(async (r) => `/api/v1/chats/${await r.chat()}/ratings`), over: { other: 403, admin: 403 } },
  'POST /api/v1/chats/:id/messages/:message_id/rating': { access: 'owned', path: P(async (r) => `/api/v1/chats/${await r.chat()}/messages/m-1/rating`), body: { rating: 1 }, over: { other: 403, admin: 403 } },
  'POST /api/v1/chats/:id/pin': { access: 'owned', path: P(async (r) => `/api/v1/chats/${await r.chat()}/pin`), over: { other: 403, admin: 403 } },
  'POST /api/v1/chats/attachment/upload': { access: 'user' },
  'GET /api/v1/chats/search': { access: 'user' },
  'GET /api/v1/chats/all/tags': { access: 'user' },
  'GET /api/v1/chats/all': { access: 'user' },
  'POST /api/v1/chats/import': { access: 'user' },
  'POST /api/v1/chats/archive/all': { access: 'user' },
  'GET /api/v1/chats/share/:share_id': { access: 'user', path: P(async (r) => `/api/v1/chats/share/${await r.share()}`) },
  'POST /api/v1/chats/:id/share': { access: 'owned', path: P(async (r) => `/api/v1/chats/${await r.chat()}/share`), over: { other: 403, admin: 403 } },
  'DELETE /api/v1/chats/:id/share': { access: 'owned', fresh: true, path: P(async (r) => `/api/v1/chats/${await r.chat()}/share`), over: { other: 403, admin: 403 } },
  'GET /api/v1/chats/:id/export': { access: 'owned', path: P(async (r) => `/api/v1/chats/${await r.chat()}/export`), over: { other: 403, admin: 403 } },
  'POST /api/v1/chats/:id/folder': { access: 'owned', path: P(async (r) => `/api/v1/chats/${await r.chat()}/folder`), over: { other: 403, admin: 403 } },
  'POST /api/v1/chats/:id/tags': { access: 'owned', path: P(async (r) => `/api/v1/chats/${await r.chat()}/tags`), over: { other: 403, admin: 403 } },
  'DELETE /api/v1/chats/:id/tags': { access: 'owned', path: P(async (r) => `/api/v1/chats/${await r.chat()}/tags`), over: { other: 403, admin: 403 } },
  'GET /api/v1/folders': { access: 'user' },
  'POST /api/v1/folders': { access: 'user' },
  'GET /api/v1/folders/:id': { access: 'owned', path: P(async (r) => `/api/v1/folders/${await r.folder()}`), over: { other: 403, admin: 403 } },
  'POST /api/v1/folders/:id/update': { access: 'owned', path: P(async (r) => `/api/v1/folders/${await r.folder()}/update`), over: { other: 403, admin: 403 } },
  'DELETE /api/v1/folders/:id': { access: 'owned', fresh: true, path: P(async (r) => `/api/v1/folders/${await r.folder()}`), over: { other: 403, admin: 403 } },
  // A private prompt answers someone else like a missing one (404), which the guard counts as let through.
  'GET /api/v1/audio/config': { access: 'admin' },
  'POST /api/v1/audio/config/update': { access: 'admin' },
  'GET /api/v1/audio/engines': { access: 'user' },
  'POST /api/v1/audio/transcriptions': { access: 'user' },
  'POST /api/v1/audio/speech': { access: 'user' },
  'GET /api/v1/audio/models': { access: 'user' },
  'GET /api/v1/audio/voices': { access: 'user' },

  // Channels are off by default (ENABLE_CHANNELS): every route refuses every account, admins too
  // (channels.test.ts holds their matrix with channels on: member, manager, outsider, admin).
  ...Object.fromEntries(
    [
      'GET /api/v1/channels',
      'POST /api/v1/channels/create',
      'GET /api/v1/channels/search',
      'GET /api/v1/channels/:id',
      'GET /api/v1/channels/:id/members',
      'POST /api/v1/channels/:id/update',
      'DELETE /api/v1/channels/:id/delete',
      'POST /api/v1/channels/:id/read',
      'POST /api/v1/channels/:id/files',
      'GET /api/v1/channels/:id/messages',
      'POST /api/v1/channels/:id/messages/post',
      'GET /api/v1/channels/:id/messages/:message_id',
      'GET /api/v1/channels/:id/messages/:message_id/thread',
      'POST /api/v1/channels/:id/messages/:message_id/update',
      'DELETE /api/v1/channels/:id/messages/:message_id/delete',
      'POST /api/v1/channels/:id/messages/:message_id/reactions/add',
      'POST /api/v1/channels/:id/messages/:message_id/reactions/remove',
      'GET /api/v1/channels/:id/messages/:message_id/files/:file_id',
    ].map((k): [string, Row] => [k, { access: 'user', over: { user: 403, other: 403, admin: 403, apikey: 403 } }]),
  ),
  'GET /api/v1/prompts': { access: 'user' },
  'POST /api/v1/prompts/create': { access: 'user' },
  'GET /api/v1/prompts/command/:command': { access: 'owned', path: P(async (r) => `/api/v1/prompts/command/${await r.prompt()}`) },
  'POST /api/v1/prompts/command/:command/update': { access: 'owned', path: P(async (r) => `/api/v1/prompts/command/${await r.prompt()}/update`) },
  'DELETE /api/v1/prompts/command/:command/delete': { access: 'owned', fresh: true, path: P(async (r) => `/api/v1/prompts/command/${await r.prompt()}/delete`) },
  // Notes: someone else's private note answers like a missing one (404); memories are only ever the caller's own.
  'GET /api/v1/notes': { access: 'user' },
  'GET /api/v1/notes/search': { access: 'user' },
  'POST /api/v1/notes/create': { access: 'user' },
  'POST /api/v1/notes/assist': { access: 'user' },
  'GET /api/v1/notes/export': { access: 'user' },
  'GET /api/v1/notes/:id': { access: 'owned', path: P(async (r) => `/api/v1/notes/${await r.note()}`) },
  'GET /api/v1/notes/:id/export': { access: 'owned', path: P(async (r) => `/api/v1/notes/${await r.note()}/export`) },
  'POST /api/v1/notes/:id/update': { access: 'owned', path: P(async (r) => `/api/v1/notes/${await r.note()}/update`) },
  'DELETE /api/v1/notes/:id/delete': { access: 'owned', fresh: true, path: P(async (r) => `/api/v1/notes/${await r.note()}/delete`) },
  'GET /api/v1/memories': { access: 'user' },
  'POST /api/v1/memories/add': { access: 'user' },
  'POST /api/v1/memories/query': { access: 'user' },
  'POST /api/v1/memories/suggest': { access: 'user' },
  'DELETE /api/v1/memories/delete/user': { access: 'user' },
  'POST /api/v1/memories/:id/update': { access: 'owned', path: P(async (r) => `/api/v1/memories/${await r.memory()}/update`) },
  'DELETE /api/v1/memories/:id': { access: 'owned', fresh: true, path: P(async (r) => `/api/v1/memories/${await r.memory()}`) },
  'DELETE /api/v1/chats/attachment/:file_id': { access: 'owned', fresh: true, path: P(async (r) => `/api/v1/chats/attachment/${await r.attachment()}`), over: { other: 403, admin: 403 } },
  'GET /api/v1/files/:id': { access: 'owned', path: P(async (r) => `/api/v1/files/${await r.attachment()}`), over: { other: 403 } },
  'GET /api/v1/files/:id/content': { access: 'owned', path: P(async (r) => `/api/v1/files/${await r.attachment()}/content`), over: { other: 403 } },

  'GET /api/v1/configs/connections': { access: 'admin' },
  'POST /api/v1/configs/connections': { access: 'admin' },
  'GET /api/v1/configs/lan': { access: 'admin' },
  'POST /api/v1/configs/lan': { access: 'admin' },
  'GET /api/v1/configs/lan/qr': { access: 'admin' },
  'GET /api/v1/configs/offline': { access: 'admin' },
  'POST /api/v1/configs/offline': { access: 'admin' },
  'GET /api/v1/configs/tool_servers': { access: 'admin' },
  'POST /api/v1/configs/tool_servers': { access: 'admin' },
  'POST /api/v1/configs/tool_servers/verify': { access: 'admin' },
  'GET /api/v1/configs/code_execution': { access: 'admin' },
  'POST /api/v1/configs/code_execution': { access: 'admin' },
  'POST /api/v1/utils/code/execute': { access: 'user' },
  'POST /api/v1/utils/code/warm': { access: 'user' },
  'GET /api/v1/images/config': { access: 'admin' },
  'POST /api/v1/images/config/update': { access: 'admin' },
  'GET /api/v1/images/config/url/verify': { access: 'admin' },
  'GET /api/v1/images/models': { access: 'user' },
  'POST /api/v1/images/generations': { access: 'user', over: { user: 403, other: 403, admin: 403, apikey: 403 } },
  'POST /api/v1/images/edit': { access: 'user', over: { user: 403, other: 403, admin: 403, apikey: 403 } },
  'GET /compat/config': { access: 'admin' },
  'POST /compat/config/update': { access: 'admin' },
  'POST /compat/verify': { access: 'admin' },
  'GET /local/config': { access: 'admin' },
  'POST /local/config/update': { access: 'admin' },
  'POST /local/verify': { access: 'admin' },
  'GET /builtin/models': { access: 'user' },
  'GET /builtin/recommended': { access: 'user' },
  'POST /builtin/models/import': { access: 'admin' },
  'POST /builtin/models/download': { access: 'admin' },
  'GET /builtin/models/:id': { access: 'user', path: P(async () => '/builtin/models/no-such-model') },
  'POST /builtin/models/:id': { access: 'admin', path: P(async () => '/builtin/models/no-such-model') },
  'POST /builtin/models/:id/pause': { access: 'admin', path: P(async () => '/builtin/models/no-such-model/pause') },
  'POST /builtin/models/:id/resume': { access: 'admin', path: P(async () => '/builtin/models/no-such-model/resume') },
  'POST /builtin/models/:id/cancel': { access: 'admin', path: P(async () => '/builtin/models/no-such-model/cancel') },
  'DELETE /builtin/models/:id': { access: 'admin', path: P(async () => '/builtin/models/no-such-model') },
  'GET /builtin/config': { access: 'admin' },
  'POST /builtin/config': { access: 'admin' },

  'GET /api/v1/groups': { access: 'user' },
  'POST /api/v1/groups/create': { access: 'admin' },
  'GET /api/v1/groups/id/:id': { access: 'admin', path: P(async (r) => `/api/v1/groups/id/${await r.group()}`) },
  'DELETE /api/v1/groups/id/:id/delete': { access: 'admin', fresh: true, path: P(async (r) => `/api/v1/groups/id/${await r.group()}/delete`) },
  'POST /api/v1/groups/id/:id/update': { access: 'admin', path: P(async (r) => `/api/v1/groups/id/${await r.group()}/update`) },
  'POST /api/v1/groups/id/:id/users/add': { access: 'admin', path: P(async (r) => `/api/v1/groups/id/${await r.group()}/users/add`) },
  'POST /api/v1/groups/id/:id/users/remove': { access: 'admin', path: P(async (r) => `/api/v1/groups/id/${await r.group()}/users/remove`) },

  // The interface's refusal statuses (docs/api-notes.md): a model the caller may not read answers like a missing one, 401 (get, update, toggle, delete).
  'GET /api/v1/models/available': { access: 'user' },
  'GET /api/v1/models/export': { access: 'admin' },
  'POST /api/v1/models/import': { access: 'admin', body: { models: [] } },
  'GET /api/v1/models/config': { access: 'admin' },
  'POST /api/v1/models/config': { access: 'admin' },
  'POST /api/v1/models/create': { access: 'user' },
  'GET /api/v1/models/list': { access: 'user' },
  'GET /api/v1/models/model': { access: 'owned', path: P(async (r) => `/api/v1/models/model?id=${await r.model()}`), over: { other: 401 } },
  'DELETE /api/v1/models/model/delete': { access: 'owned', fresh: true, path: P(async (r) => `/api/v1/models/model/delete?id=${await r.model()}`), over: { other: 401 } },
  'POST /api/v1/models/model/toggle': { access: 'owned', path: P(async (r) => `/api/v1/models/model/toggle?id=${await r.model()}`), over: { other: 401 } },
  'POST /api/v1/models/model/update': { access: 'owned', path: P(async (r) => `/api/v1/models/model/update?id=${await r.model()}`), body: async (r: Resources) => (await server.as(r.ownerToken()).get(`/api/v1/models/model?id=${await r.model()}`)).body, over: { other: 400 } },

  'GET /api/v1/retrieval/config': { access: 'admin' },
  'POST /api/v1/retrieval/config': { access: 'admin' },
  'POST /api/v1/retrieval/config/update': { access: 'admin' },
  'GET /api/v1/retrieval/embedding': { access: 'admin' },
  'POST /api/v1/retrieval/embedding/update': { access: 'admin' },
  'POST /api/v1/retrieval/query/collection': { access: 'user' },
  // Web search is off on a fresh install: every signed-in caller is refused before the body is read (web-search.test.ts covers it on).
  'POST /api/v1/retrieval/process/web/search': { access: 'user', over: { user: 403, other: 403, admin: 403, apikey: 403 } },
  'POST /api/v1/retrieval/process/web': { access: 'user', over: { user: 403, other: 403, admin: 403, apikey: 403 } },

  'POST /api/v1/tasks/autocomplete': { access: 'user' },
  'GET /api/v1/tasks/config': { access: 'admin' },
  'POST /api/v1/tasks/config/update': { access: 'admin' },
  'POST /api/v1/tasks/follow-up': { access: 'user' },
  'POST /api/v1/tasks/queries': { access: 'user' },
  'POST /api/v1/tasks/tags': { access: 'user' },
  'POST /api/v1/tasks/title': { access: 'user' },

  'GET /api/v1/tools': { access: 'user' },
  'POST /api/v1/tools/create': { access: 'admin' },
  'GET /api/v1/tools/:id': { access: 'user', path: P(async (r) => `/api/v1/tools/${await r.tool()}`) },
  'DELETE /api/v1/tools/:id': { access: 'admin', fresh: true, path: P(async (r) => `/api/v1/tools/${await r.tool()}`) },
  'POST /api/v1/tools/:id/update': { access: 'admin', path: P(async (r) => `/api/v1/tools/${await r.tool()}/update`) },
  'DELETE /api/v1/tools/oauth/:server_id': { access: 'user', path: P(() => '/api/v1/tools/oauth/no-such-server') },
  'POST /api/v1/tools/oauth/:server_id/authorize': { access: 'user', path: P(() => '/api/v1/tools/oauth/no-such-server/authorize') },
  'GET /api/v1/tools/oauth/callback': { access: 'public' },

  'GET /api/v1/users': { access: 'admin' },
  'GET /api/v1/users/all': { access: 'admin' },
  // Any account may search names (sharing pickers); GET /groups lists the caller's own groups.
  'GET /api/v1/users/search': { access: 'user' },
  'GET /api/v1/users/active': { access: 'user' },
  'GET /api/v1/users/groups': { access: 'user' },
  'GET /api/v1/users/permissions': { access: 'user' },
  'GET /api/v1/users/default/permissions': { access: 'admin' },
  'POST /api/v1/users/default/permissions': { access: 'admin' },
  'GET /api/v1/users/:user_id': { access: 'user', path: P(async (r) => `/api/v1/users/${await r.victim()}`) },
  'GET /api/v1/users/:user_id/active': { access: 'user', path: P(async (r) => `/api/v1/users/${await r.victim()}/active`) },
  'POST /api/v1/users/:user_id/update': { access: 'admin', path: P(async (r) => `/api/v1/users/${await r.victim()}/update`) },
  'DELETE /api/v1/users/:user_id': { access: 'admin', fresh: true, path: P(async (r) => `/api/v1/users/${await r.victim()}`) },
  'GET /api/v1/users/profile/image': { access: 'user' },
  'DELETE /api/v1/users/profile/image': { access: 'user' },
  'GET /api/v1/users/user/info': { access: 'user' },
  'POST /api/v1/users/user/info/update': { access: 'user' },
  'POST /api/v1/users/user/profile/image': { access: 'user' },
  'GET /api/v1/users/user/settings': { access: 'user' },
  'POST /api/v1/users/user/settings/update': { access: 'user' },

  // The OpenAI-compatible API: API keys and sessions of verified accounts.
  'GET /v1/models': { access: 'user' },
  'GET /v1/models/*id': { access: 'user', path: P(() => '/v1/models/no/such-model') },
  'POST /v1/chat/completions': { access: 'user' },
  'POST /v1/embeddings': { access: 'user' },
  // Image generation starts turned off: refused for everyone past the guard.
  'POST /v1/images/generations': { access: 'user', over: { user: 403, other: 403, admin: 403, apikey: 403 } },
  'POST /v1/audio/transcriptions': { access: 'user' },
  'POST /v1/audio/speech': { access: 'user' },
  'GET /api/v1/usage': { access: 'admin' },
  'GET /api/openapi.json': { access: 'public' },
};

interface Callers {
  tokens: Record<Caller, string | undefined>;
  user: TestUser;
  other: TestUser;
}

async function signin(u: TestUser): Promise<string> {
  const res = await server.anon.post('/api/v1/auths/signin', { email: u.email, password: u.password });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${res.text}`);
  return res.body.token;
}

/** Answers status only (streams and SSE are cancelled after the head), within a bounded time. */
async function statusOf(method: string, path: string, token: string | undefined, body: unknown = {}): Promise<{ status: number; text: string }> {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const hasBody = method === 'POST' || method === 'PATCH';
  if (hasBody) headers['content-type'] = 'application/json';
  const res = await fetch(`${server.url}${path}`, { method, headers, body: hasBody ? JSON.stringify(body) : undefined, signal: AbortSignal.timeout(15_000) });
  const type = res.headers.get('content-type') ?? '';
  if (type.includes('event-stream') || type.includes('zip') || type.includes('octet-stream')) {
    await res.body?.cancel();
    return { status: res.status, text: '' };
  }
  return { status: res.status, text: await res.text() };
}

describe('access matrix', () => {
  const clock = manualClock();
  let callers: Callers;
  let pending: TestUser;
  let expiredToken: string;

  async function refresh(): Promise<void> {
    const user = { ...callers.user, token: await signin(callers.user) };
    const other = { ...callers.other, token: await signin(callers.other) };
    const adminToken = await signin(admin);
    admin = { ...admin, token: adminToken };
    const key = await server.as(user.token).post('/api/v1/auths/api_key');
    if (key.status !== 200) throw new Error(`api key failed: ${key.status} ${key.text}`);
    callers = {
      user,
      other,
      tokens: {
        none: undefined,
        bad: 'not-a-token',
        expired: expiredToken,
        pending: await signin(pending),
        user: user.token,
        other: other.token,
        admin: adminToken,
        apikey: key.body.api_key,
      },
    };
  }

  beforeAll(async () => {
    server = await startTestServer({ clock, envVars: { PARLEY_SIGNIN_RATE_LIMIT: '0' } });
    admin = await signupAdmin(server);
    const user = await buildUser(server, admin);
    const other = await buildUser(server, admin);
    pending = await buildUser(server, admin, 'pending');
    expiredToken = user.token;
    clock.advance(8 * 86_400);
    callers = { user, other, tokens: {} as Record<Caller, string | undefined> };
    await refresh();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('has a row for every route the service mounts', () => {
    const missing = listRoutes(server.app)
      .map((r) => `${r.method} ${r.path}`)
      .filter((k) => !ROWS[k]);
    expect(missing).toEqual([]);
    expect(listRoutes(server.app).length).toBeGreaterThan(100);
  });

  it('answers every route for every kind of caller with the documented status', async () => {
    const shared = new Resources(() => callers.user);
    const failures: string[] = [];
    const routes = listRoutes(server.app).sort((a, b) => Number(!!ROWS[`${a.method} ${a.path}`]?.spends) - Number(!!ROWS[`${b.method} ${b.path}`]?.spends));
    for (const route of routes) {
      const key = `${route.method} ${route.path}`;
      const row = ROWS[key];
      if (!row) continue;
      for (const caller of CALLERS) {
        const res = row.fresh ? new Resources(() => callers.user) : shared;
        const path = row.path ? await row.path(res) : route.path;
        const want = row.over?.[caller] ?? classExpect(row.access, caller);
        const body = typeof row.body === 'function' ? await (row.body as (r: Resources) => Promise<unknown>)(res) : row.body;
        const got = await statusOf(route.method, path, callers.tokens[caller], body);
        const ok = want === 'ok' ? got.status !== 401 && got.status !== 403 && got.status < 500 : got.status === want;
        if (!ok) failures.push(`${key} as ${caller}: want ${want}, got ${got.status} ${got.text.slice(0, 120)}`);
        // The OpenAI-compatible /v1 API answers errors in OpenAI's shape, everything else as {detail}.
        const errorShape = route.path.startsWith('/v1/') ? /^\{"error":\{"message":/ : /^\{"detail":/;
        if (got.status >= 400 && got.text && !errorShape.test(got.text) && !got.text.startsWith('<')) failures.push(`${key} as ${caller}: error body is not ${errorShape.source}: ${got.text.slice(0, 120)}`);
      }
      if (row.spends) await refresh();
    }
    expect(failures).toEqual([]);
  }, 300_000);

  it('answers 404 with {detail} for a path no route serves, signed in or not', async () => {
    for (const token of [undefined, callers.tokens.user]) {
      const res = await statusOf('GET', '/api/v1/no-such-endpoint', token);
      expect(res.status).toBe(404);
      expect(JSON.parse(res.text)).toEqual({ detail: expect.any(String), code: expect.any(String) });
    }
  });
});
