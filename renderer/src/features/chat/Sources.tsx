import { useState } from 'react';
import type { Source } from '../../api/chats';
import { Icon } from '../../components/Icon';
import { Modal } from '../../components/Modal';
import { useT } from '../../lib/i18n';

/** One citation: a source and its excerpts, numbered as the answer cites them ([1], [2]…). */
interface Citation {
  name: string;
  excerpts: Array<{ text: string; page?: number; score?: number }>;
  url?: string;
}

function citationsOf(sources: Source[]): Citation[] {
  const out: Citation[] = [];
  for (const s of sources) {
    const docs = s.document ?? [];
    docs.forEach((text, i) => {
      const meta = s.metadata?.[i] ?? {};
      const name = String(meta.name ?? meta.source ?? s.source?.name ?? s.source?.id ?? 'Source');
      let c = out.find((x) => x.name === name);
      if (!c) {
        c = { name, excerpts: [], url: typeof meta.url === 'string' ? meta.url : undefined };
        out.push(c);
      }
      c.excerpts.push({ text, page: typeof meta.page === 'number' ? meta.page : undefined, score: s.distances?.[i] });
    });
    if (docs.length === 0) out.push({ name: s.source?.name ?? s.source?.id ?? 'Source', excerpts: [] });
  }
  return out;
}

/** The citations under an answer; each opens its excerpts. */
export function Sources({ sources }: { sources: Source[] }) {
  const t = useT();
  const citations = citationsOf(sources);
  const [open, setOpen] = useState<number | null>(null);
  const current = open === null ? undefined : citations[open];
  return (
    <div className="sources" aria-label={t('chat.sources')}>
      <span className="tiny muted">{t('chat.sources')}</span>
      {citations.map((c, i) => (
        <button key={`${c.name}-${i}`} type="button" className="source-chip" onClick={() => setOpen(i)}>
          <span className="source-num">{i + 1}</span>
          <span className="truncate">{c.name}</span>
        </button>
      ))}
      {current && (
        <Modal title={`[${(open ?? 0) + 1}] ${current.name}`} onClose={() => setOpen(null)} wide>
          {current.url && (
            <p>
              <a href={current.url} target="_blank" rel="noopener noreferrer">
                <Icon name="link" size={14} /> {current.url}
              </a>
            </p>
          )}
          <div className="col">
            {current.excerpts.map((e, i) => (
              <blockquote key={i} className="excerpt">
                {(e.page !== undefined || e.score !== undefined) && (
                  <div className="tiny muted" style={{ marginBottom: 4 }}>
                    {e.page !== undefined && `p. ${e.page}`} {e.score !== undefined && `· ${t('chat.source')} ${(e.score * 100).toFixed(0)}%`}
                  </div>
                )}
                {e.text}
              </blockquote>
            ))}
          </div>
        </Modal>
      )}
    </div>
  );
}
