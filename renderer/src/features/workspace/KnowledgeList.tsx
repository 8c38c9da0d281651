import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { knowledgeApi } from '../../api/knowledge';
import { ErrorNotice, Loading, messageOf } from '../../components/Feedback';
import { TextArea, TextField } from '../../components/Field';
import { Icon } from '../../components/Icon';
import { Modal } from '../../components/Modal';
import { formatDate } from '../../lib/dates';
import { useT } from '../../lib/i18n';

/** Knowledge bases as cards, and a dialog to create one. */
export function KnowledgeList() {
  const t = useT();
  const list = useQuery({ queryKey: ['knowledge'], queryFn: knowledgeApi.list });
  const [creating, setCreating] = useState(false);
  return (
    <section>
      <div className="row mb">
        <div className="grow" />
        <button type="button" className="btn primary" onClick={() => setCreating(true)}>
          <Icon name="plus" size={16} />
          {t('workspace.newKnowledge')}
        </button>
      </div>
      {list.isPending && <Loading />}
      {list.isError && <ErrorNotice error={list.error} onRetry={() => void list.refetch()} />}
      {list.data?.length === 0 && <div className="empty card">{t('workspace.noKnowledge')}</div>}
      <div className="cards">
        {list.data?.map((kb) => (
          <article key={kb.id} className="item-card">
            <div className="row">
              <span className="avatar" style={{ background: 'var(--accent-soft)', color: 'var(--accent)' }}>
                <Icon name="book" size={16} />
              </span>
              <Link to={`/workspace/knowledge/${kb.id}`} className="title grow truncate">
                {kb.name}
              </Link>
            </div>
            <div className="desc">{kb.description || '—'}</div>
            <div className="row tiny muted">
              <span>{t('workspace.files', { count: kb.file_count ?? 0 })}</span>
              <span>·</span>
              <span>{formatDate(kb.updated_at)}</span>
            </div>
          </article>
        ))}
      </div>
      {creating && <CreateKnowledge onClose={() => setCreating(false)} />}
    </section>
  );
}

function CreateKnowledge({ onClose }: { onClose: () => void }) {
  const t = useT();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    try {
      const kb = await knowledgeApi.create(name.trim(), description);
      await qc.invalidateQueries({ queryKey: ['knowledge'] });
      navigate(`/workspace/knowledge/${kb.id}`);
    } catch (err) {
      setError(messageOf(err));
    }
  };
  return (
    <Modal title={t('workspace.newKnowledge')} onClose={onClose}>
      <form className="col" onSubmit={submit}>
        <TextField label={t('common.name')} value={name} onChange={(e) => setName(e.target.value)} required />
        <TextArea label={t('common.description')} value={description} onChange={(e) => setDescription(e.target.value)} rows={3} />
        {error && <div className="notice error">{error}</div>}
        <div className="row end">
          <button type="button" className="btn" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="btn primary" disabled={!name.trim()}>
            {t('common.create')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
