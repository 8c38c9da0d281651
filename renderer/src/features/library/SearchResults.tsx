import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { NavLink } from 'react-router';
import { libraryApi, type ChatSearchEntry } from '../../api/library';
import { messageOf } from '../../components/Feedback';
import { chatAt } from '../chat/jump-to-message';
import { useT } from '../../lib/i18n';
import { TagChips } from './TagChips';

/** A snippet with its matched ranges in <mark>. */
function Highlighted({ text, ranges }: { text: string; ranges: Array<[number, number]> }) {
  const parts: Array<{ s: string; on: boolean }> = [];
  let at = 0;
  for (const [a, b] of ranges) {
    if (a > at) parts.push({ s: text.slice(at, a), on: false });
    parts.push({ s: text.slice(a, b), on: true });
    at = b;
  }
  if (at < text.length) parts.push({ s: text.slice(at), on: false });
  return <>{parts.map((p, i) => (p.on ? <mark key={i}>{p.s}</mark> : <span key={i}>{p.s}</span>))}</>;
}

/** Server-side search over every chat (titles and messages), shown in place of the chat list while the box has text. */
export function SearchResults({ text, onTag }: { text: string; onTag: (tag: string) => void }) {
  const t = useT();
  const [debounced, setDebounced] = useState(text);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(text.trim()), 200);
    return () => clearTimeout(timer);
  }, [text]);
  const results = useQuery({ queryKey: ['chats', 'search', debounced], queryFn: () => libraryApi.search(debounced), enabled: debounced !== '', placeholderData: (previous) => previous });

  if (results.isError) return <div className="muted small" style={{ padding: 10 }} role="alert">{messageOf(results.error)}</div>;
  if (!results.data) return <div className="muted small" style={{ padding: 10 }}>{t('library.searching')}</div>;
  if (results.data.length === 0) return <div className="muted small" style={{ padding: 10 }}>{t('sidebar.noMatch', { query: debounced })}</div>;
  return (
    <ul className="search-results" aria-label={t('library.results')} aria-busy={results.isFetching}>
      {results.data.map((hit: ChatSearchEntry) => (
        <li key={hit.id}>
          <NavLink to={chatAt(hit.id, hit.message_id)} className="search-hit" data-testid="search-hit">
            <span className="search-hit-title truncate">{hit.title || t('chat.untitled')}</span>
            {hit.snippet && (
              <span className="search-hit-snippet">
                <Highlighted text={hit.snippet} ranges={hit.highlights} />
              </span>
            )}
          </NavLink>
          <TagChips tags={hit.tags} onPick={onTag} />
        </li>
      ))}
    </ul>
  );
}
