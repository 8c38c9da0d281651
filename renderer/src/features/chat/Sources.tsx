import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { Source } from '../../api/chats';
import { filesApi } from '../../api/files';
import { Icon } from '../../components/Icon';
import { Modal } from '../../components/Modal';
import { SaveToKnowledge } from './SaveToKnowledge';
import { formatPercent } from '../../lib/format';
import { t as translate, useT } from '../../lib/i18n';

/** One cited document with its excerpts, numbered as the answer cites them ([1], [2]…). */
interface Citation {
  key: string;
  fileId?: string;
  name: string;
  excerpts: Array<{ text: string; page?: number; score?: number }>;
  url?: string;
  /** For a file attached to the message: sent whole, or as passages (its beginning and the best parts). */
  attached?: 'full' | 'passages';
}

/** The n-th passage given to the model (the answer cites it as [n]), with where it comes from. */
export function passageOf(sources: Source[], n: number): { name: string; fileId?: string; url?: string; text: string } | undefined {
  let i = 0;
  for (const s of sources) {
    for (const [j, text] of (s.document ?? []).entries()) {
      i += 1;
      if (i !== n) continue;
      const meta = s.metadata?.[j] ?? {};
      return { name: str(meta.name) ?? s.source?.name ?? translate('chat.source'), fileId: str(meta.file_id), url: str(meta.url), text };
    }
  }
  return undefined;
}

/** How many passages were given to the model. */
export function passageCount(sources: Source[] | undefined): number {
  return (sources ?? []).reduce((n, s) => n + (s.document?.length ?? 0), 0);
}

const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);

function citationsOf(sources: Source[]): Citation[] {
  const out: Citation[] = [];
  for (const s of sources) {
    const docs = s.document ?? [];
    docs.forEach((text, i) => {
      const meta = s.metadata?.[i] ?? {};
      const fileId = str(meta.file_id);
      const name = str(meta.name) ?? str(meta.filename) ?? str(meta.title) ?? s.source?.name ?? translate('chat.source');
      const key = fileId ?? str(meta.url) ?? name;
      let c = out.find((x) => x.key === key);
      if (!c) {
        const attached = meta.attached === 'full' || meta.attached === 'passages' ? meta.attached : undefined;
        c = { key, fileId, name, excerpts: [], url: str(meta.url), attached };
        out.push(c);
      }
      const score = typeof meta.relevance === 'number' ? meta.relevance : s.distances?.[i];
      c.excerpts.push({ text, page: typeof meta.page === 'number' ? meta.page : undefined, score });
    });
    if (docs.length === 0) out.push({ key: s.source?.id ?? String(out.length), name: s.source?.name ?? translate('chat.source'), excerpts: [] });
  }
  return out;
}

/** A citation's name: the cited file's name when the service knows it, else the source's name. */
function useCitationName(c: Citation): string {
  const file = useQuery({ queryKey: ['file', c.fileId], queryFn: () => filesApi.get(c.fileId!), enabled: !!c.fileId, staleTime: Infinity, retry: false });
  return file.data?.filename ?? c.name;
}

function CitationChip({ citation, n, onOpen }: { citation: Citation; n: number; onOpen: () => void }) {
  const t = useT();
  const name = useCitationName(citation);
  return (
    <button type="button" className="source-chip" onClick={onOpen} title={name}>
      <span className="source-num">{n}</span>
      <span className="truncate">{name}</span>
      {citation.attached && (
        <span className="tiny muted sent-as">{citation.attached === 'full' ? t('chat.sentFull') : t('chat.sentPassages', { count: citation.excerpts.length })}</span>
      )}
    </button>
  );
}

function CitationDialog({ citation, n, onClose }: { citation: Citation; n: number; onClose: () => void }) {
  const t = useT();
  const name = useCitationName(citation);
  return (
    <Modal title={`[${n}] ${name}`} onClose={onClose} wide>
      {citation.url && <WebPage url={citation.url} />}
      {citation.fileId && (
        <p>
          <a href={filesApi.contentUrl(citation.fileId)} target="_blank" rel="noopener noreferrer">
            <Icon name="file" size={14} /> {name}
          </a>
        </p>
      )}
      <div className="col">
        {citation.excerpts.map((e, i) => (
          <blockquote key={i} className="excerpt">
            {(e.page !== undefined || e.score !== undefined) && (
              <div className="tiny muted" style={{ marginBottom: 4 }}>
                {e.page !== undefined && t('chat.page', { page: e.page })}{e.page !== undefined && e.score !== undefined && ' · '}
                {e.score !== undefined && t('chat.relevanceScore', { percent: formatPercent(e.score) })}
              </div>
            )}
            {e.text}
          </blockquote>
        ))}
      </div>
    </Modal>
  );
}

/** A web source's page: its link, and saving it to a knowledge base. */
function WebPage({ url }: { url: string }) {
  const t = useT();
  return (
    <div className="row wrap web-citation">
      <a href={url} target="_blank" rel="noopener noreferrer" title={t('chat.openPage')}>
        <Icon name="link" size={14} /> {url}
      </a>
      <SaveToKnowledge url={url} />
    </div>
  );
}

/** One cited passage, opened from an inline `[n]` marker of the answer. */
export function PassageDialog({ sources, n, onClose }: { sources: Source[]; n: number; onClose: () => void }) {
  const passage = passageOf(sources, n);
  if (!passage) return null;
  return (
    <Modal title={`[${n}] ${passage.name}`} onClose={onClose} wide>
      {passage.url && <WebPage url={passage.url} />}
      {passage.fileId && (
        <p>
          <a href={filesApi.contentUrl(passage.fileId)} target="_blank" rel="noopener noreferrer">
            <Icon name="file" size={14} /> {passage.name}
          </a>
        </p>
      )}
      <blockquote className="excerpt">{passage.text}</blockquote>
    </Modal>
  );
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
        <CitationChip key={c.key} citation={c} n={i + 1} onOpen={() => setOpen(i)} />
      ))}
      {current && open !== null && <CitationDialog citation={current} n={open + 1} onClose={() => setOpen(null)} />}
    </div>
  );
}
