import type { ChatWordIndexRepo } from './chat-word-index.repo';

/**
 * The words of a text as SQLite FTS5's `unicode61 remove_diacritics 2` tokenizer reads them: runs of
 * letters and digits, lower-cased, accents removed.
 */
export function wordTokens(text: string): string[] {
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(text)) return text.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** A query as FTS5 reads `"a b" AND "c"*`: phrases that must all occur, the last word of the last one maybe a prefix. */
export interface WordQuery {
  phrases: string[][];
  lastIsPrefix: boolean;
}

/** One position of a phrase: the term ids that may stand there. */
type Position = number | ReadonlySet<number>;
type CompiledQuery = Position[][];

interface IndexedChat {
  slot: number;
  rowid: number;
  activityMs: number;
  title: string;
  titleTokens: Int32Array;
  /** Message rowids, newest first; `starts[i]..starts[i+1]` are message i's tokens. */
  messageRowids: Int32Array;
  starts: Int32Array;
  tokens: Int32Array;
  maxRowid: number;
}

interface UserIndex {
  chats: Map<string, IndexedChat>;
  /** Slot → chat; a chat gets a new slot when re-indexed, its old one is emptied. */
  slots: Array<IndexedChat | undefined>;
  /** Term id → slots of the chats whose messages hold it (may name emptied slots). */
  postings: Map<number, number[]>;
  dead: number;
  /** Summary of the user's chats when last synced (count, newest rowid, activity and title sums). */
  signature: string;
  /** Serialises syncs of this user. */
  busy: Promise<void>;
}

const BATCH = 100;

/**
 * An in-memory word index of each searching user's chat messages, for databases without FTS5. It
 * answers the same questions as the FTS5 tables (the newest message of each chat holding all the
 * phrases; which titles hold them) with the same tokenizer rules. Before every search it compares a
 * one-row summary of the user's chats (count, newest rowid, sums of activity and of title lengths
 * and first letters) with the last one; when it moved, it lists the chats (rowid, activity, title)
 * and re-reads only those that changed — every saved message bumps its chat's activity; an answer
 * still streaming is seen once it ends. The first search of a user reads all their messages once
 * (the bench: 500k messages of 30 words take 6–16 s on a loaded 2-core machine, heap ≈ 170–220 MB).
 */
export function createChatWordIndex(repo: ChatWordIndexRepo) {
  const termIds = new Map<string, number>();
  const terms: string[] = [];
  let sortedTerms: string[] | null = null;
  const users = new Map<string, UserIndex>();

  function termId(term: string): number {
    let id = termIds.get(term);
    if (id === undefined) {
      id = terms.length;
      terms.push(term);
      termIds.set(term, id);
      sortedTerms = null;
    }
    return id;
  }

  /** Ids of the known terms that start with `prefix`. */
  function termsStartingWith(prefix: string): Set<number> {
    sortedTerms ??= [...terms].sort();
    let lo = 0;
    let hi = sortedTerms.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sortedTerms[mid]! < prefix) lo = mid + 1;
      else hi = mid;
    }
    const ids = new Set<number>();
    for (let i = lo; i < sortedTerms.length && sortedTerms[i]!.startsWith(prefix); i += 1) ids.add(termIds.get(sortedTerms[i]!)!);
    return ids;
  }

  function tokenIds(text: string): Int32Array {
    return Int32Array.from(wordTokens(text), termId);
  }

  function removeChat(user: UserIndex, chat: IndexedChat): void {
    user.slots[chat.slot] = undefined;
    user.dead += 1;
  }

  /** term id → the round that last posted it: de-duplicates a chat's terms without a Set. */
  let stamp = new Int32Array(1024);
  let round = 0;

  function post(user: UserIndex, chat: IndexedChat): void {
    if (stamp.length < terms.length) {
      const grown = new Int32Array(Math.max(terms.length, stamp.length * 2));
      grown.set(stamp);
      stamp = grown;
    }
    const mark = (round += 1);
    for (const term of chat.tokens) {
      if (stamp[term] === mark) continue;
      stamp[term] = mark;
      const list = user.postings.get(term);
      if (list) list.push(chat.slot);
      else user.postings.set(term, [chat.slot]);
    }
  }

  function addChat(user: UserIndex, id: string, rowid: number, activityMs: number, title: string, messages: Array<{ r: number; content: string }>): void {
    messages.sort((a, b) => b.r - a.r);
    const ids: number[] = [];
    const starts = new Int32Array(messages.length + 1);
    messages.forEach((m, i) => {
      for (const token of wordTokens(m.content)) ids.push(termId(token));
      starts[i + 1] = ids.length;
    });
    const chat: IndexedChat = { slot: user.slots.length, rowid, activityMs, title, titleTokens: tokenIds(title), messageRowids: Int32Array.from(messages, (m) => m.r), starts, tokens: Int32Array.from(ids), maxRowid: messages[0]?.r ?? 0 };
    user.slots.push(chat);
    user.chats.set(id, chat);
    post(user, chat);
  }

  /** Rebuilds the postings when more than half the slots are emptied (chats re-indexed or deleted). */
  function compact(user: UserIndex): void {
    if (user.dead <= user.chats.size) return;
    const live = [...user.chats.values()];
    user.slots = [];
    user.postings.clear();
    user.dead = 0;
    for (const chat of live) {
      chat.slot = user.slots.length;
      user.slots.push(chat);
      post(user, chat);
    }
  }

  async function syncUser(userId: string, user: UserIndex): Promise<void> {
    // A one-row summary first: when nothing moved (the common case), the chats need not be listed.
    const signature = JSON.stringify((await repo.summary(userId)) ?? null);
    if (signature === user.signature) return;
    user.signature = signature;
    const current = await repo.chatsOf(userId);
    const seen = new Set<string>();
    const stale: typeof current = [];
    for (const entry of current) {
      const [id, rowid, activityMs, title] = entry;
      seen.add(id);
      const held = user.chats.get(id);
      if (held && held.rowid === rowid && held.activityMs === activityMs) {
        if (held.title !== title) {
          held.title = title;
          held.titleTokens = tokenIds(title);
        }
      } else stale.push(entry);
    }
    for (const [id, chat] of user.chats) {
      if (!seen.has(id)) {
        removeChat(user, chat);
        user.chats.delete(id);
      }
    }
    for (let i = 0; i < stale.length; i += BATCH) {
      const batch = stale.slice(i, i + BATCH);
      const byChat = new Map<string, Array<{ r: number; content: string }>>();
      for (const [chatId, r, content] of await repo.messagesOf(batch.map((b) => b[0]))) {
        const list = byChat.get(chatId);
        if (list) list.push({ r, content });
        else byChat.set(chatId, [{ r, content }]);
      }
      for (const [id, rowid, activityMs, title] of batch) {
        const held = user.chats.get(id);
        if (held) removeChat(user, held);
        addChat(user, id, rowid, activityMs, title, byChat.get(id) ?? []);
      }
    }
    compact(user);
  }

  /** Brings the user's part of the index up to date with the database. */
  async function sync(userId: string): Promise<UserIndex> {
    let user = users.get(userId);
    if (!user) {
      user = { chats: new Map(), slots: [], postings: new Map(), dead: 0, signature: '', busy: Promise.resolve() };
      users.set(userId, user);
    }
    const u = user;
    const run = u.busy.then(() => syncUser(userId, u));
    u.busy = run.catch(() => undefined);
    await run;
    return u;
  }

  /** The query's positions as term ids; null when some word was never seen (nothing can match). */
  function compile(query: WordQuery): CompiledQuery | null {
    const out: CompiledQuery = [];
    for (const [p, phrase] of query.phrases.entries()) {
      const positions: Position[] = [];
      for (const [w, word] of phrase.entries()) {
        const last = query.lastIsPrefix && p === query.phrases.length - 1 && w === phrase.length - 1;
        if (last) {
          const ids = termsStartingWith(word);
          if (ids.size === 0) return null;
          positions.push(ids.size === 1 ? [...ids][0]! : ids);
        } else {
          const id = termIds.get(word);
          if (id === undefined) return null;
          positions.push(id);
        }
      }
      if (positions.length > 0) out.push(positions);
    }
    return out;
  }

  const accepts = (pos: Position, term: number) => (typeof pos === 'number' ? pos === term : pos.has(term));

  function holdsPhrase(tokens: Int32Array, from: number, to: number, phrase: Position[]): boolean {
    for (let i = from; i + phrase.length <= to; i += 1) {
      let k = 0;
      while (k < phrase.length && accepts(phrase[k]!, tokens[i + k]!)) k += 1;
      if (k === phrase.length) return true;
    }
    return false;
  }

  const holdsAll = (tokens: Int32Array, from: number, to: number, q: CompiledQuery) => q.every((phrase) => holdsPhrase(tokens, from, to, phrase));

  /** Slots of the chats whose messages hold every term of the query (somewhere, maybe not in one message). */
  function candidates(user: UserIndex, q: CompiledQuery): number[] {
    const lists = q.flat().map((pos) => {
      if (typeof pos === 'number') return user.postings.get(pos) ?? [];
      const union = new Set<number>();
      for (const term of pos) for (const s of user.postings.get(term) ?? []) union.add(s);
      return [...union];
    });
    lists.sort((a, b) => a.length - b.length);
    let result = new Set(lists[0] ?? []);
    for (const list of lists.slice(1)) {
      const next = new Set<number>();
      for (const s of list) if (result.has(s)) next.add(s);
      result = next;
    }
    return [...result].filter((s) => user.slots[s] !== undefined);
  }

  /**
   * Chat rowid → rowid of its newest message holding every phrase, for at least the `want` chats
   * with the newest such messages (all of them when fewer), among chats `eligible` allows.
   */
  function rankByMessages(user: UserIndex, query: WordQuery, want: number, eligible: (chatRowid: number) => boolean): Map<number, number> {
    const ranked = new Map<number, number>();
    const q = compile(query);
    if (q === null || q.length === 0) return ranked;
    const chats = candidates(user, q)
      .map((s) => user.slots[s]!)
      .filter((c) => eligible(c.rowid))
      .sort((a, b) => b.maxRowid - a.maxRowid);
    // Newest-first with a cut-off: once `want` chats are found whose matches are all newer than
    // the next chat's newest message, no later chat can enter the top `want`.
    const top: number[] = [];
    for (const chat of chats) {
      if (top.length >= want && top[want - 1]! > chat.maxRowid) break;
      for (let m = 0; m < chat.messageRowids.length; m += 1) {
        if (holdsAll(chat.tokens, chat.starts[m]!, chat.starts[m + 1]!, q)) {
          const r = chat.messageRowids[m]!;
          ranked.set(chat.rowid, r);
          let at = top.length;
          top.push(r);
          while (at > 0 && top[at - 1]! < r) {
            top[at] = top[at - 1]!;
            at -= 1;
          }
          top[at] = r;
          if (top.length > want) top.pop();
          break;
        }
      }
    }
    return ranked;
  }

  /** Chats (rowid, newest message rowid) whose titles hold every phrase, among chats `eligible` allows. */
  function titleMatches(user: UserIndex, query: WordQuery, eligible: (chatRowid: number) => boolean): Array<{ cr: number; r: number | null }> {
    const q = compile(query);
    if (q === null || q.length === 0) return [];
    const out: Array<{ cr: number; r: number | null }> = [];
    for (const chat of user.chats.values()) {
      if (eligible(chat.rowid) && holdsAll(chat.titleTokens, 0, chat.titleTokens.length, q)) out.push({ cr: chat.rowid, r: chat.messageRowids.length > 0 ? chat.maxRowid : null });
    }
    return out;
  }

  return {
    /** The user's part of the index, brought up to date with the database, to query within one search. */
    async forUser(userId: string) {
      const user = await sync(userId);
      return {
        rankByMessages: (query: WordQuery, want: number, eligible: (chatRowid: number) => boolean) => rankByMessages(user, query, want, eligible),
        titleMatches: (query: WordQuery, eligible: (chatRowid: number) => boolean) => titleMatches(user, query, eligible),
      };
    },
  };
}
export type ChatWordIndex = ReturnType<typeof createChatWordIndex>;
