import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { AccessControl } from '../../../../server/contracts/access';
import { knowledgeApi, type KnowledgeDetail } from '../../api/knowledge';
import { messageOf } from '../../components/Feedback';
import { TextArea, TextField } from '../../components/Field';
import { Modal } from '../../components/Modal';
import { useT } from '../../lib/i18n';
import { AccessEditor } from './AccessEditor';

/** Renames a knowledge base, changes its description and who may read and change it. */
export function KnowledgeSettings({ base, onClose }: { base: KnowledgeDetail; onClose: () => void }) {
  const t = useT();
  const qc = useQueryClient();
  const [name, setName] = useState(base.name);
  const [description, setDescription] = useState(base.description);
  const [access, setAccess] = useState<AccessControl>(base.access_control);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await knowledgeApi.update(base.id, name.trim(), description, access);
      await qc.invalidateQueries({ queryKey: ['knowledge'] });
      onClose();
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal title={t('knowledge.settings')} onClose={onClose} wide>
      <form className="col" onSubmit={submit}>
        <TextField label={t('common.name')} value={name} onChange={(e) => setName(e.target.value)} required autoFocus />
        <TextArea label={t('common.description')} value={description} onChange={(e) => setDescription(e.target.value)} rows={3} />
        <div className="field">
          <span className="field-label">{t('workspace.access')}</span>
          <AccessEditor name="knowledge-access" value={access} onChange={setAccess} />
        </div>
        {error && (
          <div className="notice error" role="alert">
            {error}
          </div>
        )}
        <div className="row end">
          <button type="button" className="btn" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="btn primary" disabled={busy || !name.trim()}>
            {t('common.save')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
