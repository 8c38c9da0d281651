import { useEffect, useRef, useState } from 'react';
import { useT } from '../../lib/i18n';
import { pathOf, type Conversation } from './store';

/** How much of a finished answer is read out: a screen reader user hears its start and reads on in the thread. */
const SPOKEN_CHARS = 200;

/** The start of an answer as plain words: Markdown's marks dropped, cut at a word near SPOKEN_CHARS. */
export function spokenStart(markdown: string): string {
  const plain = markdown
    .replace(/```[\s\S]*?(```|$)/g, ' ')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_`#>|~]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (plain.length <= SPOKEN_CHARS) return plain;
  const cut = plain.slice(0, SPOKEN_CHARS);
  const space = cut.lastIndexOf(' ');
  return `${space > SPOKEN_CHARS / 2 ? cut.slice(0, space) : cut}…`;
}

/**
 * The page's one polite live region for answers: silent while an answer streams (no token-by-token
 * chatter), it says once, in short, that the answer is ready and how it starts. A failed answer is
 * announced by its own alert instead.
 */
export function AnswerAnnouncer({ conversation, modelNames }: { conversation: Conversation | undefined; modelNames: Map<string, string> }) {
  const t = useT();
  const [said, setSaid] = useState('');
  const streamed = useRef<string | null>(null);
  const streamingId = conversation?.streamingId ?? null;

  useEffect(() => {
    if (streamingId) {
      streamed.current = streamingId;
      setSaid('');
      return;
    }
    const id = streamed.current;
    if (!id || !conversation) return;
    streamed.current = null;
    // The answer keeps its id until the saved chat is read back; then it is the last one shown.
    const node = conversation.nodes[id] ?? pathOf(conversation).at(-1);
    if (!node || node.role !== 'assistant' || node.error || !node.content.trim()) return;
    const model = (node.model && modelNames.get(node.model)) ?? node.model ?? '';
    setSaid(t('chat.answerReady', { model, text: spokenStart(node.content) }));
  }, [streamingId]);

  return (
    <div className="sr-only" role="status" aria-live="polite" data-testid="answer-announcer">
      {said}
    </div>
  );
}
