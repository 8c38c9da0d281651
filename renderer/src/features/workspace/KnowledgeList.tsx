import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { knowledgeApi } from '../../api/knowledge';
import { messageOf } from '../../components/Feedback';
import { TextArea, TextField } from '../../components/Field';
import { Icon } from '../../components/Icon';
import { Modal } from '../../components/Modal';
import { ResourceCard, ResourceIcon, ResourceList, ResourceTitle } from '../../components/ResourceList';
import { formatDate } from '../../lib/format';
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
      <ResourceList query={list} empty={t('workspace.noKnowledge')} itemKey={(kb) => kb.id}>
        {(kb) => (
          <ResourceCard
            icon={<ResourceIcon name="book" />}
            title={<ResourceTitle to={`/workspace/knowledge/${kb.id}`}>{kb.name}</ResourceTitle>}
            description={kb.description ?? ''}
            footer={
              <div className="row tiny muted">
                <span>{t('workspace.files', { count: kb.file_count ?? 0 })}</span>
                <span>·</span>
                <span>{formatDate(kb.updated_at)}</span>
              </div>
            }
          />
        )}
      </ResourceList>
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
