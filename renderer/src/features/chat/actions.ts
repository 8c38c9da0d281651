import type { QueryClient } from '@tanstack/react-query';
import { chatsApi } from '../../api/chats';
import { streamCompletion } from '../../api/completions';
import { ApiError } from '../../api/http';
import { settingsApi } from '../../api/settings';
import { messageOf } from '../../components/Feedback';
import { getConversation, leafOf, newId, patchNode, pathOf, renameConversation, setConversation, type Conversation, type FileRef, type MessageNode } from './store';

const controllers = new Map<string, AbortController>();

/** Where the UI is, so a new chat can move to its own address once the service named it. */
export interface ChatContext {
  queryClient: QueryClient;
  navigate(to: string, options?: { replace?: boolean }): void;
  /** Tool ids to offer the model, if any. */
  toolIds?: string[];
}

function addNode(key: string, node: MessageNode): void {
  setConversation(key, (c) => {
    const nodes = { ...c.nodes, [node.id]: node };
    if (node.parentId) {
      const parent = nodes[node.parentId];
      if (parent) nodes[node.parentId] = { ...parent, childrenIds: [...parent.childrenIds, node.id] };
    }
    return { ...c, nodes, currentId: node.id };
  });
}

/** Makes sure a new conversation has a saved chat; returns the (possibly new) key. Works without the chats API. */
async function ensureChat(key: string, firstText: string, ctx: ChatContext): Promise<string> {
  const c = getConversation(key);
  if (!c || c.chatId) return key;
  try {
    const title = firstText.trim().split('\n')[0]!.slice(0, 60) || 'New chat';
    const created = await chatsApi.create(title);
    renameConversation(key, created.id, created.id);
    ctx.navigate(`/c/${created.id}`, { replace: true });
    void ctx.queryClient.invalidateQueries({ queryKey: ['chats'] });
    return created.id;
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 405)) return key;
    throw error;
  }
}

/** Streams an answer into a new assistant message under `parentId`. */
async function answer(key: string, parentId: string, model: string, ctx: ChatContext): Promise<void> {
  const assistantId = newId();
  addNode(key, { id: assistantId, parentId, childrenIds: [], role: 'assistant', content: '', model, done: false, createdAt: Date.now() });
  setConversation(key, (c) => ({ ...c, streamingId: assistantId }));
  await stream(key, assistantId, model, ctx);
}

async function stream(key: string, assistantId: string, model: string, ctx: ChatContext): Promise<void> {
  const c = getConversation(key);
  if (!c) return;
  const path = pathOf(c);
  const history = path.filter((n) => n.id !== assistantId);
  const lastUser = [...history].reverse().find((n) => n.role === 'user');
  const files = lastUser?.files?.map((f) => ({ type: f.type, id: f.id }));
  const controller = new AbortController();
  controllers.get(key)?.abort();
  controllers.set(key, controller);

  let buffer = '';
  let frame = 0;
  const flush = () => {
    frame = 0;
    if (!buffer) return;
    const add = buffer;
    buffer = '';
    patchNode(key, assistantId, (n) => ({ content: n.content + add }));
  };
  try {
    await streamCompletion(
      {
        model,
        stream: true,
        messages: history.map((n) => ({ role: n.role, content: n.content })),
        ...(c.chatId ? { chat_id: c.chatId } : {}),
        ...(files?.length ? { files } : {}),
        ...(ctx.toolIds?.length ? { tool_ids: ctx.toolIds } : {}),
      },
      {
        onDelta: (text) => {
          buffer += text;
          if (!frame) frame = requestAnimationFrame(flush);
        },
        onSources: (sources) => patchNode(key, assistantId, (n) => ({ sources: [...(n.sources ?? []), ...sources] })),
        onStatus: (status) => patchNode(key, assistantId, (n) => ({ statuses: [...(n.statuses ?? []), status] })),
        onFollowUps: (items) => patchNode(key, assistantId, { followUps: items }),
      },
      controller.signal,
    );
    if (frame) cancelAnimationFrame(frame);
    flush();
    const stopped = controller.signal.aborted;
    patchNode(key, assistantId, { done: true, stopped, error: null });
    if (!stopped) void followUps(key, assistantId);
  } catch (error) {
    if (frame) cancelAnimationFrame(frame);
    flush();
    patchNode(key, assistantId, { done: true, error: messageOf(error) });
  } finally {
    if (controllers.get(key) === controller) controllers.delete(key);
    setConversation(key, (conv) => (conv.streamingId === assistantId ? { ...conv, streamingId: null } : conv));
    void ctx.queryClient.invalidateQueries({ queryKey: ['chats'] });
    // The service names new chats in the background after the first answer.
    setTimeout(() => void ctx.queryClient.invalidateQueries({ queryKey: ['chats'] }), 3000);
  }
}

async function followUps(key: string, assistantId: string): Promise<void> {
  const c = getConversation(key);
  const node = c?.nodes[assistantId];
  if (!c || !node || node.followUps?.length || !node.content) return;
  try {
    const messages = pathOf(c).map((n) => ({ role: n.role, content: n.content }));
    const answerText = messages.pop()?.content ?? '';
    const result = await settingsApi.followUps(messages, answerText);
    const items = Array.isArray(result) ? result : result.follow_ups;
    if (Array.isArray(items) && items.length) patchNode(key, assistantId, { followUps: items.filter((s) => typeof s === 'string').slice(0, 5) });
  } catch {
    /* follow-ups are optional */
  }
}

/** Sends a user message (with attachments and knowledge) and streams the answer. */
export async function sendMessage(key: string, text: string, model: string, files: FileRef[], ctx: ChatContext): Promise<void> {
  const chatKey = await ensureChat(key, text, ctx);
  const c = getConversation(chatKey);
  if (!c) return;
  const userId = newId();
  addNode(chatKey, { id: userId, parentId: c.currentId, childrenIds: [], role: 'user', content: text, files: files.length ? files : undefined, done: true, createdAt: Date.now() });
  await answer(chatKey, userId, model, ctx);
}

/** Answers again: a new sibling of `assistantId`. */
export async function regenerate(key: string, assistantId: string, model: string, ctx: ChatContext): Promise<void> {
  const node = getConversation(key)?.nodes[assistantId];
  if (!node?.parentId) return;
  await answer(key, node.parentId, model, ctx);
}

/** Retries a failed answer in place. */
export async function retry(key: string, assistantId: string, model: string, ctx: ChatContext): Promise<void> {
  patchNode(key, assistantId, { content: '', error: null, done: false, stopped: false, statuses: [], sources: [] });
  setConversation(key, (c) => ({ ...c, streamingId: assistantId, currentId: assistantId }));
  await stream(key, assistantId, model, ctx);
}

/** Saves an edited user message as a new branch and answers it. */
export async function editMessage(key: string, userId: string, text: string, model: string, ctx: ChatContext): Promise<void> {
  const old = getConversation(key)?.nodes[userId];
  if (!old) return;
  const id = newId();
  addNode(key, { ...old, id, childrenIds: [], content: text, createdAt: Date.now() });
  await answer(key, id, model, ctx);
}

/** Stops the answer streaming in this conversation. */
export function stop(key: string): void {
  controllers.get(key)?.abort();
}

/** Shows another version (sibling) of a message and the newest thread under it. */
export function showVersion(key: string, siblingId: string): void {
  setConversation(key, (c: Conversation) => ({ ...c, currentId: leafOf(c, siblingId) }));
}
