import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { AccessControl } from '../../../../server/contracts/access';
import { knowledgeApi, type KnowledgeDetail } from '../../api/knowledge';
import { TextArea, TextField } from '../../components/Field';
import { FormFooter } from '../../components/FormFooter';
import { Modal } from '../../components/Modal';
import { useFormSubmit } from '../../hooks/use-form-submit';
import { useT } from '../../lib/i18n';
import { AccessEditor } from './AccessEditor';

/** Renames a knowledge base, changes its description and who may read and change it. */
export function KnowledgeSettings({ base, onClose }: { base: KnowledgeDetail; onClose: () => void }) {
  const t = useT();
  const qc = useQueryClient();
  const [name, setName] = useState(base.name);
  const [description, setDescription] = useState(base.description);
  const [access, setAccess] = useState<AccessControl>(base.access_control);
  const { busy, error, onSubmit } = useFormSubmit(async () => {
    await knowledgeApi.update(base.id, name.trim(), description, access);
    await qc.invalidateQueries({ queryKey: ['knowledge'] });
    onClose();
  });
  return (
    <Modal title={t('knowledge.settings')} onClose={onClose} wide>
      <form className="col" onSubmit={onSubmit}>
        <TextField label={t('common.name')} value={name} onChange={(e) => setName(e.target.value)} required autoFocus />
        <TextArea label={t('common.description')} value={description} onChange={(e) => setDescription(e.target.value)} rows={3} />
        <div className="field">
          <span className="field-label">{t('workspace.access')}</span>
          <AccessEditor name="knowledge-access" value={access} onChange={setAccess} />
        </div>
        <FormFooter error={error} busy={busy} disabled={!name.trim()} onCancel={onClose} />
      </form>
    </Modal>
  );
}
