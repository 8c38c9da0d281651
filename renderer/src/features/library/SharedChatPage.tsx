import './library.css';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { libraryApi } from '../../api/library';
import { isMissing, messageOf } from '../../components/Feedback';
import { formatDateTime } from '../../lib/format';
import { useT } from '../../lib/i18n';
import { Markdown } from '../../components/markdown/Markdown';

/** `/s/{share_id}`: the read-only snapshot of a shared chat, with who shared it. */
export default function SharedChatPage() {
  const t = useT();
  const { shareId = '' } = useParams();
  const chat = useQuery({ queryKey: ['shared-chat', shareId], queryFn: () => libraryApi.shared(shareId), retry: false });
  const owner = useQuery({ queryKey: ['shared-owner', chat.data?.chat_id], queryFn: () => libraryApi.sharedOwner(chat.data!.chat_id), enabled: !!chat.data, retry: false });

  if (chat.isPending) return <div className="empty">{t('common.loading')}</div>;
  if (chat.isError) return <div className="empty" role="alert">{isMissing(chat.error) ? t('library.sharedMissing') : messageOf(chat.error)}</div>;
  const data = chat.data;
  return (
    <article className="shared-chat" aria-label={data.title}>
      <header className="shared-chat-head">
        <h1>{data.title}</h1>
        <p className="muted small">
          {owner.data && <>{t('library.sharedBy', { name: owner.data.name })} · </>}
          {t('library.sharedReadOnly', { date: formatDateTime(data.shared_at) })}
        </p>
      </header>
      {data.messages.map((m) => (
        <section key={m.id} className={`shared-message ${m.role}`} data-testid="shared-message">
          <div className="shared-role muted small">{m.role === 'assistant' ? m.model || t('library.roleAssistant') : m.role === 'user' ? t('library.roleUser') : t('library.roleSystem')}</div>
          <Markdown text={m.content} />
        </section>
      ))}
    </article>
  );
}
