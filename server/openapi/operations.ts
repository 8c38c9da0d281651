import type { z } from 'zod';
import type { RouteDoc } from '../platform/http/route';
import type { RouteEntry } from '../platform/http/route-table';
import { VALIDATES, type ValidatedPart } from '../platform/http/validate';
import { ApiUsageReport } from '../contracts/api-usage';
import { V1ChatCompletion, V1EmbeddingsResponse, V1Model, V1ModelList } from '../contracts/openai';

/** Who may call an operation, when its guard is not on the route itself. */
export type Access = 'public' | 'session' | 'user' | 'admin';

/** What the API reference says about one operation beyond what its route and validators tell. */
export interface OperationDoc {
  summary: string;
  /** The 200 body's schema, when a zod contract describes it. */
  response?: z.ZodType;
  /** Non-JSON answers. */
  produces?: 'event-stream' | 'json-or-event-stream' | 'binary' | 'zip' | 'html' | 'png';
  /** Guards mounted on the whole router (not visible on the route). */
  access?: Access;
  /** Request bodies that are not JSON. */
  consumes?: 'multipart';
}

const op = (summary: string, extra: Omit<OperationDoc, 'summary'> = {}): OperationDoc => ({ summary, ...extra });

/** The account endpoints, published both under `/auths` and `/api/v1/auths`. */
const AUTHS: Record<string, OperationDoc> = {
  'POST /signup': op('Create an account (the first one becomes the primary admin)', { access: 'public' }),
  'POST /signin': op('Sign in with email and password; returns a session token', { access: 'public' }),
  'GET ': op('The current session with effective permissions; refreshes it'),
  'GET /signout': op('Sign out and clear the session cookie'),
  'POST /add': op('Create an account (admin)'),
  'POST /api_key': op('Create (or replace) the caller’s API key `sk-…`'),
  'GET /api_key': op('The caller’s API key'),
  'DELETE /api_key': op('Delete the caller’s API key'),
  'POST /update/profile': op('Update the caller’s name, picture and info'),
  'POST /update/password': op('Change the caller’s password'),
  'GET /admin/users/:user_id/api_key': op('Whether a user holds an API key (admin)'),
  'DELETE /admin/users/:user_id/api_key': op('Revoke a user’s API key (admin)'),
  'GET /admin/config': op('Account settings (sign-up, API keys, token lifetime)'),
  'POST /admin/config': op('Update account settings'),
};

/** Knowledge endpoints, published both under `/api/knowledge` and `/api/v1/knowledge`. */
const KNOWLEDGE: Record<string, OperationDoc> = {
  'GET ': op('Knowledge bases the caller may read'),
  'POST /create': op('Create a knowledge base'),
  'GET /:id': op('A knowledge base with its files'),
  'POST /:id/update': op('Rename, describe or share a knowledge base, or change its language (re-indexes it)'),
  'GET /:id/file/:file_id/preview': op('A file’s extracted text and its chunks'),
  'DELETE /:id/delete': op('Delete a knowledge base'),
  'POST /:id/file/add': op('Add an uploaded file to a knowledge base (ingested in the background)'),
  'POST /:id/file/remove': op('Remove a file from a knowledge base'),
  'GET /:id/export': op('Download a knowledge base’s files as a ZIP', { produces: 'zip' }),
  'POST /:id/graph/toggle': op('Turn the knowledge graph on or off'),
  'GET /:id/graph/status': op('Knowledge graph build status (`stream=true`: Server-Sent Events)', { produces: 'json-or-event-stream' }),
  'GET /:id/graph/visualize': op('The knowledge graph as an HTML page', { produces: 'html' }),
};

function under(prefixes: string[], table: Record<string, OperationDoc>): Record<string, OperationDoc> {
  const out: Record<string, OperationDoc> = {};
  for (const prefix of prefixes) {
    for (const [key, doc] of Object.entries(table)) {
      const [method, path] = key.split(' ') as [string, string];
      out[`${method} ${prefix}${path}`] = doc;
    }
  }
  return out;
}

/**
 * Every operation of the service, keyed `METHOD /express/path`. A route mounted without an
 * entry here is missing from /api/openapi.json, and test/integration/openapi.test.ts fails.
 */
export const OPERATIONS: Record<string, OperationDoc> = {
  'GET /health': op('Liveness check', { access: 'public' }),
  'GET /user.png': op('The default profile picture', { access: 'public', produces: 'png' }),
  'GET /api/config': op('Public configuration for the sign-in page (name, sign-up open, features)', { access: 'public' }),
  'GET /api/openapi.json': op('This document: the OpenAPI 3.1 reference of the service', { access: 'public' }),
  ...under(['/auths', '/api/v1/auths'], AUTHS),

  'GET /api/v1/users': op('Users, paged and filtered'),
  'GET /api/v1/users/all': op('All users'),
  'GET /api/v1/users/search': op('Find users by name or email (for sharing pickers)'),
  'GET /api/v1/users/active': op('Ids of users connected right now'),
  'GET /api/v1/users/permissions': op('The caller’s effective permissions'),
  'GET /api/v1/users/default/permissions': op('The default permissions of every user'),
  'POST /api/v1/users/default/permissions': op('Replace the default permissions'),
  'GET /api/v1/users/user/settings': op('The caller’s UI settings'),
  'POST /api/v1/users/user/settings/update': op('Replace the caller’s UI settings'),
  'GET /api/v1/users/user/info': op('The caller’s info dictionary'),
  'POST /api/v1/users/user/info/update': op('Merge keys into the caller’s info dictionary'),
  'POST /api/v1/users/user/profile/image': op('Upload a profile picture', { consumes: 'multipart' }),
  'GET /api/v1/users/profile/image': op('A stored profile picture', { produces: 'binary' }),
  'DELETE /api/v1/users/profile/image': op('Delete a stored profile picture'),
  'GET /api/v1/users/groups': op('Groups the caller belongs to'),
  'GET /api/v1/users/:user_id': op('A user’s public card (name, picture, active)'),
  'GET /api/v1/users/:user_id/active': op('Whether a user is connected'),
  'POST /api/v1/users/:user_id/update': op('Update a user (admin)'),
  'DELETE /api/v1/users/:user_id': op('Delete a user (admin)'),

  'GET /api/v1/groups': op('Groups (admins: all; others: their own)'),
  'POST /api/v1/groups/create': op('Create a group'),
  'GET /api/v1/groups/id/:id': op('A group'),
  'POST /api/v1/groups/id/:id/update': op('Update a group and replace its members'),
  'POST /api/v1/groups/id/:id/users/add': op('Add members to a group'),
  'POST /api/v1/groups/id/:id/users/remove': op('Remove members from a group'),
  'DELETE /api/v1/groups/id/:id/delete': op('Delete a group'),

  'GET /api/v1/configs/lan': op('LAN sharing settings and addresses'),
  'POST /api/v1/configs/lan': op('Turn LAN sharing on or off, choose HTTPS (409 PASSWORD_REQUIRED while the caller has no password)'),
  'GET /api/v1/configs/lan/qr': op('A QR code of a LAN address', { produces: 'png' }),
  'GET /api/v1/configs/suggestions': op('Suggested prompts of the empty chat'),
  'POST /api/v1/configs/suggestions': op('Replace the suggested prompts'),
  'GET /api/v1/backups': op('Backups of the data dir', { access: 'admin' }),
  'POST /api/v1/backups': op('Make a backup now', { access: 'admin' }),
  'GET /api/v1/backups/:name/download': op('Download a backup', { access: 'admin', produces: 'binary' }),
  'DELETE /api/v1/backups/:name': op('Delete a backup', { access: 'admin' }),

  'GET /compat/config': op('OpenAI-compatible provider connections'),
  'POST /compat/config/update': op('Replace the OpenAI-compatible provider connections'),
  'POST /compat/verify': op('Check an OpenAI-compatible connection'),
  'GET /local/config': op('Local (Ollama-style) provider connections'),
  'POST /local/config/update': op('Replace the local provider connections'),
  'POST /local/verify': op('Check a local provider connection'),
  'GET /builtin/models': op('Built-in (GGUF) models on this machine'),
  'GET /builtin/recommended': op('Recommended built-in models to download'),
  'POST /builtin/models/import': op('Import a GGUF file', { consumes: 'multipart' }),
  'POST /builtin/models/download': op('Download a model from a URL'),
  'GET /builtin/models/:id': op('A built-in model'),
  'POST /builtin/models/:id': op('Rename a built-in model or change its settings'),
  'POST /builtin/models/:id/pause': op('Pause a download'),
  'POST /builtin/models/:id/resume': op('Resume a download'),
  'POST /builtin/models/:id/cancel': op('Cancel a download'),
  'DELETE /builtin/models/:id': op('Delete a built-in model'),
  'GET /builtin/config': op('Built-in model runtime settings'),
  'POST /builtin/config': op('Update the built-in model runtime settings'),
  'GET /api/v1/configs/connections': op('Direct connection flags'),
  'POST /api/v1/configs/connections': op('Update the direct connection flags'),
  'GET /api/v1/connections/status': op('Which provider connections answer right now'),

  'GET /api/models': op('Base models of every enabled provider'),
  'GET /api/v1/models/list': op('Registry models the caller may read'),
  'GET /api/v1/models/available': op('Models the caller may chat with (the model picker)'),
  'GET /api/v1/models/model': op('A registry model (`id` in the query: ids may hold `/`)'),
  'POST /api/v1/models/create': op('Create a custom model'),
  'POST /api/v1/models/model/update': op('Update a registry model'),
  'POST /api/v1/models/model/toggle': op('Turn a registry model on or off'),
  'DELETE /api/v1/models/model/delete': op('Delete a registry model'),
  'GET /api/v1/models/config': op('Model registry settings'),
  'POST /api/v1/models/config': op('Update the model registry settings'),

  'POST /api/v1/chats/attachment/upload': op('Upload chat attachments', { consumes: 'multipart' }),
  'DELETE /api/v1/chats/attachment/:file_id': op('Delete a chat attachment'),
  'GET /api/v1/chats/search': op('Search the caller’s chats'),
  'GET /api/v1/chats/all/tags': op('Tags used on the caller’s chats'),
  'GET /api/v1/chats/all': op('Every chat of the caller (export)'),
  'POST /api/v1/chats/import': op('Import chats'),
  'POST /api/v1/chats/archive/all': op('Archive every chat of the caller'),
  'GET /api/v1/chats/share/:share_id': op('A shared chat'),
  'POST /api/v1/chats/:id/share': op('Share a chat (read-only link)'),
  'DELETE /api/v1/chats/:id/share': op('Stop sharing a chat'),
  'GET /api/v1/chats/:id/export': op('Export a chat (JSON, Markdown or text)', { produces: 'binary' }),
  'POST /api/v1/chats/:id/folder': op('Move a chat to a folder'),
  'POST /api/v1/chats/:id/tags': op('Tag a chat'),
  'DELETE /api/v1/chats/:id/tags': op('Remove a tag from a chat'),
  'GET /api/v1/chats': op('The caller’s chats, newest first'),
  'GET /api/v1/chats/pinned': op('Pinned chats'),
  'GET /api/v1/chats/archived': op('Archived chats'),
  'POST /api/v1/chats/new': op('Create a chat'),
  'GET /api/v1/chats/:id': op('A chat with its messages'),
  'POST /api/v1/chats/:id': op('Rename a chat'),
  'DELETE /api/v1/chats/:id': op('Delete a chat'),
  'POST /api/v1/chats/:id/pin': op('Pin or unpin a chat'),
  'POST /api/v1/chats/:id/archive': op('Archive or unarchive a chat'),
  'POST /api/v1/chats/:id/messages': op('Add a message to a chat'),
  'POST /api/v1/chats/:id/messages/:message_id': op('Edit a message'),
  'POST /api/v1/chats/:id/current': op('Choose the branch shown'),
  'PATCH /api/v1/chats/:id/attachments': op('Set the files attached to a chat'),
  'GET /api/v1/chats/:id/ratings': op('Ratings of a chat’s answers'),
  'POST /api/v1/chats/:id/messages/:message_id/rating': op('Rate an answer'),
  'GET /api/v1/folders': op('The caller’s folders'),
  'POST /api/v1/folders': op('Create a folder'),
  'GET /api/v1/folders/:id': op('A folder'),
  'POST /api/v1/folders/:id/update': op('Rename or move a folder'),
  'DELETE /api/v1/folders/:id': op('Delete a folder'),
  'GET /api/v1/prompts': op('Saved prompts the caller may use'),
  'POST /api/v1/prompts/create': op('Save a prompt'),
  'GET /api/v1/prompts/command/:command': op('A saved prompt'),
  'POST /api/v1/prompts/command/:command/update': op('Update a saved prompt'),
  'DELETE /api/v1/prompts/command/:command/delete': op('Delete a saved prompt'),
  'GET /api/v1/files/:id': op('An uploaded file’s details'),
  'GET /api/v1/files/:id/content': op('An uploaded file’s bytes', { produces: 'binary' }),
  'POST /api/chat/completions': op('Chat completion for the Parley UI (saves to a chat; `stream`: Server-Sent Events)', { produces: 'json-or-event-stream' }),

  'GET /api/v1/tasks/config': op('Background task settings (titles, tags, follow-ups…)'),
  'POST /api/v1/tasks/config/update': op('Replace the background task settings'),
  'POST /api/v1/tasks/title': op('Generate a chat title'),
  'POST /api/v1/tasks/follow-up': op('Suggest follow-up questions'),
  'POST /api/v1/tasks/tags': op('Suggest chat tags'),
  'POST /api/v1/tasks/autocomplete': op('Complete the text being typed'),
  'POST /api/v1/tasks/queries': op('Generate search queries'),

  'GET /api/v1/tools': op('Tools the caller may use (Python, OpenAPI, MCP)'),
  'POST /api/v1/tools/create': op('Create a tool'),
  'GET /api/v1/tools/oauth/callback': op('OAuth 2.1 redirect target of MCP tool servers', { access: 'public', produces: 'html' }),
  'POST /api/v1/tools/oauth/:server_id/authorize': op('Start authorizing an MCP tool server for the caller'),
  'DELETE /api/v1/tools/oauth/:server_id': op('Forget the caller’s tokens for an MCP tool server'),
  'GET /api/v1/tools/:id': op('A tool'),
  'POST /api/v1/tools/:id/update': op('Update a tool’s configuration'),
  'DELETE /api/v1/tools/:id': op('Delete a tool'),
  'GET /api/v1/configs/tool_servers': op('Tool server connections'),
  'POST /api/v1/configs/tool_servers': op('Replace the tool server connections'),
  'POST /api/v1/configs/tool_servers/verify': op('Check a tool server and list its tools'),

  ...under(['/api/knowledge', '/api/v1/knowledge'], KNOWLEDGE),
  'GET /api/v1/retrieval/config': op('Retrieval settings'),
  'POST /api/v1/retrieval/config/update': op('Update the retrieval settings'),
  'POST /api/v1/retrieval/config': op('Update the retrieval settings (alias)'),
  'GET /api/v1/retrieval/embedding': op('Embedding settings and re-embedding progress'),
  'POST /api/v1/retrieval/embedding/update': op('Update the embedding settings'),
  'POST /api/v1/retrieval/query/collection': op('Search knowledge bases'),
  'GET /auths/desktop-handover': op('One-time sign-in of the desktop window as its owner (loopback only); redirects to the app or the setup screen', { access: 'public' }),
  'GET /api/v1/desktop/setup': op('What the first-run setup screen offers: connected providers, a local Ollama, the secret store in use (admin)'),
  'GET /api/v1/usage': op('Requests and tokens through /v1 per day, user and model', { response: ApiUsageReport }),

  'GET /v1/models': op('Models the caller may use (OpenAI list)', { response: V1ModelList }),
  'GET /v1/models/*id': op('One model the caller may use', { response: V1Model }),
  'POST /v1/chat/completions': op('OpenAI chat completion; `stream: true` answers `chat.completion.chunk` events ending with `data: [DONE]`', {
    response: V1ChatCompletion,
    produces: 'json-or-event-stream',
  }),
  'POST /v1/embeddings': op('Embeddings from the configured engine (float or base64)', { response: V1EmbeddingsResponse }),
  'POST /v1/audio/transcriptions': op('OpenAI transcription: multipart `file` (wav, webm, ogg, mp3, flac; m4a through a provider), `response_format` json, text or verbose_json; needs chat.stt', { consumes: 'multipart' }),
  'POST /v1/audio/speech': op('OpenAI speech: `{model, input, voice, response_format, speed}` → audio bytes (wav or pcm from the offline voice); needs chat.tts', { produces: 'binary' }),
};

/** The declaration of a route not yet declared with `route()`, from this table, its guards' names and its validators. */
export function legacyDocOf(route: RouteEntry): RouteDoc | undefined {
  const doc = OPERATIONS[`${route.method} ${route.path}`];
  if (!doc) return undefined;
  const names = route.handlers.map((h) => (typeof h === 'function' ? h.name : ''));
  const guard = names.includes('requireAdmin') ? 'admin' : names.includes('requireUser') ? 'user' : names.includes('requireSession') ? 'session' : (doc.access ?? 'public');
  const validated = route.handlers.map((h) => (h as { [VALIDATES]?: ValidatedPart })[VALIDATES]).filter((v): v is ValidatedPart => v !== undefined);
  return {
    summary: doc.summary,
    guard,
    body: validated.find((v) => v.part === 'body')?.schema,
    query: validated.find((v) => v.part === 'query')?.schema,
    response: doc.response,
    produces: doc.produces ?? 'json',
    consumes: doc.consumes,
  };
}
