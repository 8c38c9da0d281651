import type { QueryClient } from '@tanstack/react-query';
import { chatsApi, type ChatMessage } from '../../api/chats';
import { stopAnswer, streamCompletion, type CompletionFeatures } from '../../api/completions';
import { ApiError } from '../../api/http';
import { memoriesApi } from '../../api/memories';
import { settingsApi } from '../../api/settings';
import { messageOf } from '../../components/Feedback';
import { choicesOf, fileNames, fromChat, measured, getConversation, isSuggestion, leafOf, newId, patchNode, pathOf, renameConversation, setConversation, type FileRef, type MessageNode } from './store';

const controllers = new Map<string, AbortController>();

/** Where the UI is, so a new chat can move to its own address once the service named it. */
export interface ChatContext {
  queryClient: QueryClient;
  navigate(to: string, options?: { replace?: boolean }): void;
  /** Tool ids to offer the model; by default those turned on in the conversation's composer. */
  toolIds?: string[];
  /** The user's personal system prompt, sent first. */
  system?: string;
  /** Chat features that can be used now with the chosen model (on, permitted, the model can): turned on in the composer, they are sent. */
  available?: { web_search?: boolean; code_interpreter?: boolean; image_generation?: boolean };
  /** Features for this answer only, whatever the composer says ("edit this image"). */
  features?: { code_interpreter?: boolean; image_generation?: boolean };
  /** Memory on: the person's relevant memories join the context. */
  memory?: boolean;
  /** After an answer, ask the task model for things worth remembering (memory suggestions on). */
  suggestMemories?: boolean;
}

/** The `features` of a completion: what this answer asks for, else what is on in the composer and can be used. */
function featuresOf(key: string, ctx: ChatContext): CompletionFeatures | undefined {
  const chosen = choicesOf(key);
  const features: CompletionFeatures = ctx.features ?? {
    ...(chosen.webSearch && ctx.available?.web_search ? { web_search: true } : {}),
    ...(chosen.codeInterpreter && ctx.available?.code_interpreter ? { code_interpreter: true } : {}),
    ...(chosen.imageGeneration && ctx.available?.image_generation ? { image_generation: true } : {}),
  };
  const withMemory = ctx.memory ? { ...features, memory: true } : features;
  return Object.keys(withMemory).length > 0 ? withMemory : undefined;
}

/** How the service should save a turn. */
interface Turn {
  /** The saved message the turn follows (null: the chat's first message). */
  parentId: string | null;
  regenerate: boolean;
}

function addNode(key: string, node: MessageNode): void {
  node = { ...node, local: true };
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
async function ensureChat(key: string, ctx: ChatContext): Promise<string> {
  const c = getConversation(key);
  if (!c || c.chatId) return key;
  try {
    // No title: the service generates one after the first answer (and never overwrites a rename).
    const created = await chatsApi.create();
    renameConversation(key, created.id, created.id);
    ctx.navigate(`/c/${created.id}`, { replace: true });
    void ctx.queryClient.invalidateQueries({ queryKey: ['chats'] });
    return created.id;
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 405)) return key;
    throw error;
  }
}

/** Re-reads a saved chat so the tree holds the service's ids (branches, follow-ups, titles). */
async function reload(key: string): Promise<boolean> {
  const c = getConversation(key);
  if (!c?.chatId || c.streamingId) return false;
  try {
    const chat = await chatsApi.get(c.chatId);
    if (getConversation(key)?.streamingId) return false;
    setConversation(key, fromChat(key, chat));
    return true;
  } catch {
    return false;
  }
}

/** Streams an answer into a new assistant message under `parentId`. */
async function answer(key: string, parentId: string, model: string, turn: Turn, ctx: ChatContext): Promise<void> {
  const assistantId = newId();
  addNode(key, { id: assistantId, parentId, childrenIds: [], role: 'assistant', content: '', model, done: false, createdAt: Date.now() });
  setConversation(key, (c) => ({ ...c, streamingId: assistantId }));

  const c = getConversation(key)!;
  const history = pathOf(c).filter((n) => n.id !== assistantId);
  const lastUser = [...history].reverse().find((n) => n.role === 'user');
  const files = lastUser?.files?.map((f) => ({ type: f.type, id: f.id }));
  // Regenerations and follow-ups use the tools still turned on in the composer.
  const toolIds = ctx.toolIds ?? choicesOf(key).toolIds;
  const features = featuresOf(key, ctx);
  const controller = new AbortController();
  controllers.get(key)?.abort();
  controllers.set(key, controller);

  let buffer = '';
  let frame = 0;
  let savedId: string | undefined;
  const flush = () => {
    frame = 0;
    // After Stop nothing more is painted: the text on screen is the answer that is kept.
    if (controller.signal.aborted) buffer = '';
    if (!buffer) return;
    const add = buffer;
    buffer = '';
    patchNode(key, assistantId, (n) => ({ content: n.content + add }));
  };
  let failed = false;
  const sentAt = performance.now();
  let firstAt = 0;
  let cut = false;
  try {
    await streamCompletion(
      {
        model,
        stream: true,
        messages: [...(ctx.system ? [{ role: 'system', content: ctx.system }] : []), ...history.map((n) => ({ role: n.role, content: n.content }))],
        ...(c.chatId ? { chat_id: c.chatId, parent_id: turn.parentId, stream_id: assistantId, ...(turn.regenerate ? { regenerate: true } : {}) } : {}),
        ...(files?.length ? { files } : {}),
        ...(toolIds.length ? { tool_ids: toolIds } : {}),
        ...(features ? { features } : {}),
      },
      {
        onDelta: (text) => {
          if (controller.signal.aborted) return;
          if (!firstAt) firstAt = performance.now();
          buffer += text;
          if (!frame) frame = requestAnimationFrame(flush);
        },
        onSaved: (_chat, messageId) => (savedId = messageId ?? savedId),
        onSources: (sources) => patchNode(key, assistantId, (n) => ({ sources: [...(n.sources ?? []), ...sources] })),
        onMemories: (memories) => patchNode(key, assistantId, { memories }),
        onStatus: (status) => patchNode(key, assistantId, (n) => ({ statuses: [...(n.statuses ?? []), status] })),
        onToolStep: (step) => patchNode(key, assistantId, (n) => ({ toolSteps: [...(n.toolSteps ?? []), step] })),
        onFollowUps: (items) => patchNode(key, assistantId, { followUps: items.filter(isSuggestion) }),
        onUsage: (usage) => patchNode(key, assistantId, (n) => ({ usage: { ...n.usage, ...usage } })),
        onFinish: (reason) => (cut = reason === 'length'),
      },
      controller.signal,
    );
    if (frame) cancelAnimationFrame(frame);
    flush();
    const timings = firstAt ? { ttftMs: Math.round(firstAt - sentAt), streamMs: Math.round(performance.now() - firstAt) } : {};
    patchNode(key, assistantId, (n) => ({ done: true, stopped: controller.signal.aborted || cut, error: null, usage: { ...n.usage, ...timings } }));
  } catch (error) {
    failed = true;
    if (frame) cancelAnimationFrame(frame);
    flush();
    patchNode(key, assistantId, { done: true, error: messageOf(error) });
  } finally {
    if (controllers.get(key) === controller) controllers.delete(key);
    setConversation(key, (conv) => (conv.streamingId === assistantId ? { ...conv, streamingId: null } : conv));
  }
  void ctx.queryClient.invalidateQueries({ queryKey: ['chats'] });
  if (failed) {
    await keepUnsaved(key, assistantId);
    return;
  }
  // A saved turn is re-read for the service's ids; what this page measured stays with the saved answer.
  const streamed = getConversation(key)?.nodes[assistantId];
  if (controller.signal.aborted && c.chatId && streamed) {
    // Stopped: the service keeps what the screen showed (it may have saved more, or not yet all of it).
    const kept = await tellStopped(c.chatId, assistantId, savedId, streamed.content);
    if (!kept) {
      await keepUnsaved(key, assistantId);
      return;
    }
    measured.set(kept.id, { usage: streamed.usage, stopped: kept.status !== 'complete', shown: streamed.content });
    savedId = kept.id;
  }
  // Drawn under the same key once saved: a citation or menu opened as the answer ends stays open.
  if (savedId && savedId !== assistantId) measured.set(savedId, { ...measured.get(savedId), viewKey: assistantId });
  if (await reload(key)) {
    const after = getConversation(key);
    const leaf = after?.currentId ? after.nodes[after.currentId] : undefined;
    if (leaf?.role === 'assistant' && streamed) {
      // The stream's note that a knowledge base matched nothing is not saved with the answer: this page keeps it.
      const statuses = streamed.statuses?.filter((s) => s.action === 'knowledge_unmatched');
      const stopped = measured.get(leaf.id)?.stopped;
      measured.set(leaf.id, { ...measured.get(leaf.id), usage: { ...streamed.usage, ...leaf.usage }, stopped: stopped ?? streamed.stopped, statuses, memories: streamed.memories });
      patchNode(key, leaf.id, (n) => ({ usage: { ...streamed.usage, ...n.usage }, stopped: stopped ?? (n.stopped || streamed.stopped), statuses, memories: streamed.memories }));
    }
    if (ctx.suggestMemories && leaf?.role === 'assistant') void suggestMemories(key, leaf.id, model);
    // The service names the chat and may suggest follow-ups in the background: look again shortly.
    setTimeout(() => {
      void reload(key);
      void ctx.queryClient.invalidateQueries({ queryKey: ['chats'] });
    }, 2500);
  } else if (!controller.signal.aborted) void followUps(key, assistantId);
}

/** Asks the task model what from this conversation is worth remembering; shown quietly under the answer. */
async function suggestMemories(key: string, assistantId: string, model: string): Promise<void> {
  const c = getConversation(key);
  if (!c) return;
  const messages = pathOf(c)
    .filter((n) => n.content)
    .slice(-6)
    .map((n) => ({ role: n.role, content: n.content }));
  try {
    const { suggestions } = await memoriesApi.suggest(messages, model);
    if (suggestions.length > 0) patchNode(key, assistantId, { memorySuggestions: suggestions });
  } catch {
    /* suggestions are optional */
  }
}

/**
 * Tells the service the person stopped an answer and what their screen showed of it; resolves to
 * the answer as saved (with that text), or null when the service never got the request. A stop
 * that overtook its request is asked again once the answer had time to begin (and stop).
 */
async function tellStopped(chatId: string, streamId: string, messageId: string | undefined, shown: string): Promise<ChatMessage | null> {
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      const { message } = await stopAnswer({ chat_id: chatId, stream_id: streamId, ...(messageId ? { message_id: messageId } : {}), content: shown });
      if (message) return message;
    } catch {
      return null;
    }
    await new Promise((resolve) => setTimeout(resolve, 400));
  }
  return null;
}

/** After a failed (or unsaved stopped) turn, re-reads what the service saved and keeps the answer (with its retry) on screen. */
async function keepUnsaved(key: string, assistantId: string): Promise<void> {
  const before = getConversation(key);
  const failedNode = before?.nodes[assistantId];
  const userNode = failedNode?.parentId ? before?.nodes[failedNode.parentId] : undefined;
  if (!before || !failedNode || !userNode || !(await reload(key))) return;
  const after = getConversation(key)!;
  const leaf = after.currentId ? after.nodes[after.currentId] : undefined;
  if (leaf?.role === 'assistant' && leaf.error) return; // the service saved the failure itself
  if (leaf?.role === 'user' && leaf.content === userNode.content) {
    addNode(key, { ...failedNode, parentId: leaf.id, childrenIds: [] });
    return;
  }
  // The question was not saved either: show it again, unsaved, with the error under it.
  addNode(key, { ...userNode, parentId: after.currentId, childrenIds: [] });
  addNode(key, { ...failedNode, parentId: userNode.id, childrenIds: [] });
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
    if (Array.isArray(items) && items.length) patchNode(key, assistantId, { followUps: items.filter(isSuggestion).slice(0, 5) });
  } catch {
    /* follow-ups are optional */
  }
}

/** Sends a user message (with attachments and knowledge) and streams the answer. */
export async function sendMessage(key: string, text: string, model: string, files: FileRef[], ctx: ChatContext): Promise<void> {
  const chatKey = await ensureChat(key, ctx);
  const c = getConversation(chatKey);
  if (!c) return;
  const parentId = c.currentId;
  for (const f of files) fileNames.set(f.id, f.name);
  const userId = newId();
  addNode(chatKey, { id: userId, parentId, childrenIds: [], role: 'user', content: text, files: files.length ? files : undefined, done: true, createdAt: Date.now() });
  await answer(chatKey, userId, model, { parentId, regenerate: false }, ctx);
}

/** Answers again: a new sibling of `assistantId` (also how a failed answer is retried). */
export async function regenerate(key: string, assistantId: string, model: string, ctx: ChatContext): Promise<void> {
  const c = getConversation(key);
  const node = c?.nodes[assistantId];
  const question = node?.parentId ? c?.nodes[node.parentId] : undefined;
  if (!node || !question) return;
  // An unsaved question is sent again as a new turn; a saved one gets a new answer as a sibling.
  const turn: Turn = question.local ? { parentId: question.parentId, regenerate: false } : { parentId: question.id, regenerate: true };
  await answer(key, question.id, model, turn, ctx);
}

/** Saves an edited user message as a new branch and answers it. */
export async function editMessage(key: string, userId: string, text: string, model: string, ctx: ChatContext): Promise<void> {
  const old = getConversation(key)?.nodes[userId];
  if (!old) return;
  const id = newId();
  addNode(key, { ...old, id, childrenIds: [], content: text, createdAt: Date.now() });
  await answer(key, id, model, { parentId: old.parentId, regenerate: false }, ctx);
}

/** Stops the answer streaming in this conversation. */
export function stop(key: string): void {
  controllers.get(key)?.abort();
}

/** Shows another version (sibling) of a message and the newest thread under it, and remembers it. */
export function showVersion(key: string, siblingId: string): void {
  const c = setConversation(key, (conv) => ({ ...conv, currentId: leafOf(conv, siblingId) }));
  if (c.chatId && c.currentId) void chatsApi.setCurrent(c.chatId, c.currentId).catch(() => undefined);
}

/** Continues a stopped or cut answer: the model gets the answer so far and its text is added to it; a saved answer is saved again as a new version. */
export async function continueAnswer(key: string, assistantId: string, model: string): Promise<void> {
  const c = getConversation(key);
  const node = c?.nodes[assistantId];
  if (!c || !node || node.role !== 'assistant' || c.streamingId) return;
  setConversation(key, (conv) => ({ ...conv, currentId: leafOf(conv, assistantId) === assistantId ? assistantId : conv.currentId, streamingId: assistantId }));
  patchNode(key, assistantId, { done: false, stopped: false, error: null });
  const history = pathOf(getConversation(key)!);
  const upTo = history.slice(0, history.findIndex((n) => n.id === assistantId) + 1);
  const controller = new AbortController();
  controllers.get(key)?.abort();
  controllers.set(key, controller);
  let cut = false;
  let error: string | null = null;
  try {
    await streamCompletion(
      { model: node.model ?? model, stream: true, messages: upTo.map((n) => ({ role: n.role, content: n.content })) },
      { onDelta: (text) => !controller.signal.aborted && patchNode(key, assistantId, (n) => ({ content: n.content + text })), onFinish: (reason) => (cut = reason === 'length') },
      controller.signal,
    );
  } catch (e) {
    error = messageOf(e);
  } finally {
    if (controllers.get(key) === controller) controllers.delete(key);
  }
  patchNode(key, assistantId, { done: true, stopped: controller.signal.aborted || cut, error });
  setConversation(key, (conv) => (conv.streamingId === assistantId ? { ...conv, streamingId: null } : conv));
  const now = getConversation(key);
  const text = now?.nodes[assistantId]?.content ?? '';
  if (now?.chatId && !node.local && text !== node.content) {
    await saveEdit(key, assistantId, text, { stopped: controller.signal.aborted || cut });
  }
}

/** Saves a changed answer as a new version (the old one stays, browsable with the version arrows). */
export async function editAnswer(key: string, assistantId: string, text: string): Promise<void> {
  const c = getConversation(key);
  const node = c?.nodes[assistantId];
  if (!c || !node || text === node.content) return;
  if (!c.chatId || node.local) {
    patchNode(key, assistantId, { content: text });
    return;
  }
  await saveEdit(key, assistantId, text, {});
}

async function saveEdit(key: string, messageId: string, text: string, keep: Pick<MessageNode, 'stopped'>): Promise<void> {
  const c = getConversation(key);
  if (!c?.chatId) return;
  try {
    const saved = await chatsApi.editMessage(c.chatId, messageId, text);
    measured.set(saved.id, { usage: c.nodes[messageId]?.usage, stopped: keep.stopped });
    await chatsApi.setCurrent(c.chatId, saved.id).catch(() => undefined);
    await reload(key);
  } catch (error) {
    patchNode(key, messageId, { error: messageOf(error) });
  }
}
