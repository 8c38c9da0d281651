import { useSyncExternalStore } from 'react';
import type { Chat, ChatMessage, MessageToolStep, Source } from '../../api/chats';
import type { StreamStatus } from '../../api/completions';
import type { UsedMemory } from '../../../../server/contracts/memories';

/** A file, knowledge base or note attached to a user message. */
export interface FileRef {
  type: 'file' | 'collection' | 'note';
  id: string;
  name: string;
}

/** One message in the conversation tree (edits and regenerations make siblings). */
export interface MessageNode {
  id: string;
  parentId: string | null;
  childrenIds: string[];
  role: 'user' | 'assistant';
  content: string;
  model?: string;
  files?: FileRef[];
  sources?: Source[];
  statuses?: StreamStatus[];
  /** Tool calls the answer made (streamed, then saved with it). */
  toolSteps?: MessageToolStep[];
  followUps?: string[];
  /** The person's memories the answer was given (memory on); kept by this page only, never saved with the chat. */
  memories?: UsedMemory[];
  /** Things the task model proposes to remember after this answer (suggestions on). */
  memorySuggestions?: string[];
  error?: string | null;
  /** False while the answer streams. */
  done: boolean;
  /** Stopped by the user, or cut by the token limit: shown quietly, and it can be continued. */
  stopped?: boolean;
  /** Tokens and timings of the answer (timings only for answers streamed in this page). */
  usage?: MessageUsageInfo;
  /** Made here and not (yet) saved by the service: its id means nothing to the service. */
  local?: boolean;
  /** The key the thread draws it under: an answer streamed here keeps its first key once saved, so what is open in it (a citation) stays open. */
  viewKey?: string;
  createdAt: number;
}

/** Token counts from the provider and what the UI measured while the answer streamed. */
export interface MessageUsageInfo {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
  /** Milliseconds from sending to the first text. */
  ttftMs?: number;
  /** Milliseconds from the first text to the end. */
  streamMs?: number;
}

/** The service's mark on an answer the user stopped (it is not a failure). */
const STOPPED_BY_USER = /^Stopped\b/;

/** A conversation as the UI holds it: the tree, the visible leaf, and what is streaming. */
export interface Conversation {
  key: string;
  chatId: string | null;
  nodes: Record<string, MessageNode>;
  currentId: string | null;
  streamingId: string | null;
}

/** A follow-up suggestion worth showing: it has words in it (not a number or a marker such as "[1]"). */
export function isSuggestion(text: unknown): text is string {
  return typeof text === 'string' && /\p{L}{2}/u.test(text);
}

const conversations = new Map<string, Conversation>();
const listeners = new Set<() => void>();
let version = 0;

function emit(): void {
  version++;
  for (const l of listeners) l();
}

/** A fresh empty conversation. */
export function emptyConversation(key: string, chatId: string | null): Conversation {
  return { key, chatId, nodes: {}, currentId: null, streamingId: null };
}

/** The conversation under `key`, if the UI holds it. */
export function getConversation(key: string): Conversation | undefined {
  return conversations.get(key);
}

/** Replaces or changes a conversation and re-renders its readers. */
export function setConversation(key: string, next: Conversation | ((c: Conversation) => Conversation)): Conversation {
  const current = conversations.get(key) ?? emptyConversation(key, null);
  const value = typeof next === 'function' ? next(current) : next;
  conversations.set(key, value);
  emit();
  return value;
}

/** What stays turned on in a conversation's composer from one message to the next. */
export interface ComposerChoices {
  toolIds: string[];
  knowledge: FileRef[];
  /** Search the web for the next answers (the globe). */
  webSearch: boolean;
  /** The model may run Python for the next answers (the code interpreter). */
  codeInterpreter?: boolean;
  /** An image is made for the next answers. */
  imageGeneration?: boolean;
  /** Memory on for this conversation; undefined follows the person's setting. */
  memory?: boolean;
}

const NO_CHOICES: ComposerChoices = { toolIds: [], knowledge: [], webSearch: false };
const choices = new Map<string, ComposerChoices>();

/** The tools, knowledge and web search turned on in the conversation under `key`. */
export function choicesOf(key: string): ComposerChoices {
  return choices.get(key) ?? NO_CHOICES;
}

/** Changes the tools or knowledge turned on in the conversation under `key`. */
export function setChoices(key: string, patch: Partial<ComposerChoices>): void {
  choices.set(key, { ...choicesOf(key), ...patch });
  emit();
}

/** Moves a conversation to another key (a new chat gets its id from the service), with its composer choices. */
export function renameConversation(from: string, to: string, chatId: string): void {
  const chosen = choices.get(from);
  if (chosen) {
    choices.delete(from);
    choices.set(to, chosen);
  }
  const c = conversations.get(from);
  if (!c) return;
  conversations.delete(from);
  conversations.set(to, { ...c, key: to, chatId });
  emit();
}

/** Changes one message of a conversation. */
export function patchNode(key: string, id: string, patch: Partial<MessageNode> | ((n: MessageNode) => Partial<MessageNode>)): void {
  const c = conversations.get(key);
  const node = c?.nodes[id];
  if (!c || !node) return;
  const change = typeof patch === 'function' ? patch(node) : patch;
  conversations.set(key, { ...c, nodes: { ...c.nodes, [id]: { ...node, ...change } } });
  emit();
}

/** Re-renders when the conversation under `key` changes. */
export function useConversation(key: string): Conversation | undefined {
  useSyncExternalStore(
    (cb) => {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    () => version,
  );
  return conversations.get(key);
}

/** The visible thread: from the root to the current leaf. */
export function pathOf(c: Conversation): MessageNode[] {
  const out: MessageNode[] = [];
  let id = c.currentId;
  const seen = new Set<string>();
  while (id && !seen.has(id)) {
    seen.add(id);
    const node: MessageNode | undefined = c.nodes[id];
    if (!node) break;
    out.push(node);
    id = node.parentId;
  }
  return out.reverse();
}

/** The deepest leaf under `id`, following the newest child at each step. */
export function leafOf(c: Conversation, id: string): string {
  let node = c.nodes[id];
  while (node && node.childrenIds.length > 0) {
    const next = c.nodes[node.childrenIds[node.childrenIds.length - 1]!];
    if (!next) break;
    node = next;
  }
  return node?.id ?? id;
}

/** The siblings of a message (itself included), in creation order. */
export function siblingsOf(c: Conversation, node: MessageNode): string[] {
  if (node.parentId === null) return Object.values(c.nodes).filter((n) => n.parentId === null).sort((a, b) => a.createdAt - b.createdAt).map((n) => n.id);
  return c.nodes[node.parentId]?.childrenIds ?? [node.id];
}

let seq = 0;
/** A message id unique in this page. */
export function newId(): string {
  seq += 1;
  return `m${Date.now().toString(36)}${seq.toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

/**
 * What this page measured about saved answers (timings, cut by the token limit, knowledge that
 * matched nothing, memories used, the text shown when the person stopped it), by message id:
 * reloads keep it.
 */
export const measured = new Map<string, Pick<MessageNode, 'usage' | 'stopped' | 'statuses' | 'memories' | 'viewKey'> & { shown?: string }>();

/** Names of files and knowledge bases seen in this page, by id (saved messages keep only ids). */
export const fileNames = new Map<string, string>();

function nodeOf(m: ChatMessage): MessageNode | null {
  if (m.role !== 'user' && m.role !== 'assistant') return null;
  return {
    id: m.id,
    parentId: m.parent_id,
    childrenIds: [...(m.children_ids ?? [])],
    role: m.role,
    content: m.content ?? '',
    model: m.model ?? undefined,
    files: m.files?.map((f) => ({ type: f.type === 'collection' || f.type === 'note' ? f.type : 'file', id: f.id, name: (f as { name?: string }).name ?? fileNames.get(f.id) ?? '' })),
    sources: m.sources,
    toolSteps: m.tool_steps?.length ? m.tool_steps : undefined,
    // Older saved answers may hold a bare citation number as a "suggestion": only real questions are shown.
    followUps: m.follow_ups?.filter(isSuggestion),
    // Stopping is neutral: the service's "Stopped before…" note is shown as a quiet mark, not as a failure.
    error: m.error && STOPPED_BY_USER.test(m.error) ? null : m.error,
    stopped: m.status === 'interrupted' && (!m.error || STOPPED_BY_USER.test(m.error)),
    usage: m.usage ?? undefined,
    done: true,
    createdAt: m.created_at,
  };
}

/** Builds a conversation from a saved chat: every branch from `history`, showing `current_id`. */
export function fromChat(key: string, chat: Chat): Conversation {
  const c = emptyConversation(key, chat.id);
  const all = chat.history?.messages ? Object.values(chat.history.messages) : (chat.messages ?? []);
  for (const m of all) {
    const node = nodeOf(m);
    const seen = measured.get(m.id);
    if (node && seen) {
      node.usage = { ...seen.usage, ...node.usage };
      node.stopped = node.stopped || seen.stopped;
      node.memories = seen.memories;
      node.viewKey = seen.viewKey;
      if (seen.statuses?.length) node.statuses = seen.statuses;
      // A stopped answer reads as it was on screen, even if the service could not be told in time.
      if (seen.shown !== undefined) {
        node.content = seen.shown;
        node.stopped = seen.stopped;
      }
    }
    if (node) c.nodes[node.id] = node;
  }
  // System messages are not shown: lift their children to the root.
  for (const node of Object.values(c.nodes)) {
    if (node.parentId && !c.nodes[node.parentId]) node.parentId = null;
    node.childrenIds = node.childrenIds.filter((id) => c.nodes[id]);
  }
  const current = chat.history?.current_id ?? chat.current_message_id ?? chat.messages?.at(-1)?.id ?? null;
  c.currentId = current && c.nodes[current] ? current : (Object.values(c.nodes).sort((a, b) => b.createdAt - a.createdAt)[0]?.id ?? null);
  return c;
}
