import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { knowledgeApi, type KnowledgeSummary } from '../../api/knowledge';
import { webApi } from '../../api/web';
import { useSession } from '../../app/session';
import { ErrorNotice } from '../../components/Feedback';
import { Icon } from '../../components/Icon';
import { useToast } from '../../components/Toasts';
import { useDismiss } from '../../hooks/use-dismiss';
import { useT } from '../../lib/i18n';

/**
 * "Save to a knowledge base" for a web source: picks a base, and the service reads the page again
 * (with the same fetch rules) into it as a file. Shown only while web search is on for the person.
 */
export function SaveToKnowledge({ url }: { url: string }) {
  const t = useT();
  const { state } = useSession();
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  useDismiss(ref, open, () => setOpen(false));
  const usable = state.status === 'signedIn' && state.config?.features.enable_web_search === true && (state.user.role === 'admin' || state.user.permissions?.features.web_search !== false);
  if (!usable) return null;
  return (
    <div ref={ref} className="save-to-knowledge">
      <button type="button" className="btn small" onClick={() => setOpen((o) => !o)} aria-expanded={open}>
        <Icon name="book" size={14} /> {t('chat.saveToKnowledge')}
      </button>
      {open && <KnowledgeChoice url={url} onDone={() => setOpen(false)} />}
    </div>
  );
}

function KnowledgeChoice({ url, onDone }: { url: string; onDone: () => void }) {
  const t = useT();
  const toast = useToast();
  const queryClient = useQueryClient();
  const { state } = useSession();
  const me = state.status === 'signedIn' ? state.user : undefined;
  const bases = useQuery({ queryKey: ['knowledge'], queryFn: knowledgeApi.list });
  const save = useMutation({
    mutationFn: (base: KnowledgeSummary) => webApi.saveToKnowledge(url, base.id),
    onSuccess: (_answer, base) => {
      toast(t('chat.savedToKnowledge', { name: base.name }));
      void queryClient.invalidateQueries({ queryKey: ['knowledge'] });
      onDone();
    },
  });
  // Bases the person can add to: their own, those shared with them for writing (admins: every one).
  const writable = (bases.data ?? []).filter((b) => me?.role === 'admin' || b.user_id === me?.id || (me !== undefined && (b.access_control?.write?.user_ids ?? []).includes(me.id)));
  return (
    <div className="menu save-to-knowledge-menu" role="menu">
      {writable.length === 0 && !bases.isPending && <p className="tiny muted">{t('chat.saveToKnowledgeNone')}</p>}
      {writable.map((base) => (
        <button key={base.id} type="button" role="menuitem" className="menu-item" disabled={save.isPending} onClick={() => save.mutate(base)}>
          {save.isPending && save.variables?.id === base.id ? t('chat.savingToKnowledge', { name: base.name }) : base.name}
        </button>
      ))}
      {save.isError && <ErrorNotice error={save.error} />}
    </div>
  );
}
