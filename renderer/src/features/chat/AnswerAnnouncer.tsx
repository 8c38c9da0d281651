import { useEffect, useRef, useState } from 'react';
import { useT } from '../../lib/i18n';
import { pathOf, type Conversation } from './store';

/**
 * The page's one polite live region for answers: silent while an answer streams (no token-by-token
 * chatter), it says once, in short, that the answer is ready (the reader goes on in the thread; the
 * text itself is not repeated, so the page never holds it twice). A failed answer is announced by
 * its own alert instead.
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
    setSaid(t('chat.answerReady', { model }));
  }, [streamingId]);

  return (
    <div className="sr-only" role="status" aria-live="polite" data-testid="answer-announcer">
      {said}
    </div>
  );
}
