import { CHAT_PAGE_SIZE } from '../../contracts/chats';
import type { ChatSearchEntry, ChatSearchQuery } from '../../contracts/chat-library';
import { presentChatEntry } from '../chats.present';
import type { ChatSearchHit, ChatSearchRepo } from './chat-search.repo';
import { ftsQuery, ftsTerms, highlightWords, matchedPassage, parseSearchText } from './search-text';

const WINDOW = 90;

/** A plain passage cut around its first match, with the words highlighted. */
function plainSnippet(content: string, words: readonly string[]): { text: string; highlights: Array<[number, number]> } {
  const lower = content.toLowerCase();
  const at = Math.max(0, words.length > 0 ? lower.indexOf(words[0]!) : 0);
  const start = Math.max(0, at - WINDOW);
  const end = Math.min(content.length, at + WINDOW);
  const text = `${start > 0 ? '…' : ''}${content.slice(start, end)}${end < content.length ? '…' : ''}`.replace(/\s+/g, ' ');
  return { text, highlights: highlightWords(text, words) };
}

function present(hit: ChatSearchHit, words: readonly string[]): ChatSearchEntry {
  const entry = presentChatEntry(hit.row);
  if (hit.passage === null) return { ...entry, snippet: null, highlights: [], message_id: null };
  const { text, highlights } = hit.via === 'words' ? matchedPassage(hit.passage, ftsTerms(words)) : plainSnippet(hit.passage, words);
  return { ...entry, snippet: text, highlights, message_id: hit.messageId };
}

/** Search over a user's chats: words in titles and messages, `tag:` and date filters, 60 per page. */
export function createChatSearchService(deps: { repo: ChatSearchRepo }) {
  return {
    async search(userId: string, query: ChatSearchQuery): Promise<ChatSearchEntry[]> {
      const parsed = parseSearchText(query.text);
      const hits = await deps.repo.search({
        userId,
        fts: ftsQuery(parsed.words),
        words: parsed.words,
        tags: parsed.tags,
        after: parsed.after,
        before: parsed.before,
        offset: (query.page - 1) * CHAT_PAGE_SIZE,
        limit: CHAT_PAGE_SIZE,
      });
      return hits.map((hit) => present(hit, parsed.words));
    },
  };
}
export type ChatSearchService = ReturnType<typeof createChatSearchService>;
