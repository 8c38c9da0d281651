import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { AccessControl } from '../../../../server/contracts/access';
import { ANALYSIS_LANGUAGES } from '../../../../server/contracts/knowledge';
import { knowledgeApi, type AnalysisLanguage, type KnowledgeDetail } from '../../api/knowledge';
import { SelectField, TextArea, TextField } from '../../components/Field';
import { FormFooter } from '../../components/FormFooter';
import { Modal } from '../../components/Modal';
import { useFormSubmit } from '../../hooks/use-form-submit';
import { useT } from '../../lib/i18n';
import { AccessEditor } from '../../components/AccessEditor';
import { useAbilities } from '../../app/abilities';
import { languageName, ReindexProgress } from './ReindexProgress';

/** Renames a knowledge base, changes its description, its documents' language and who may read and change it. */
export function KnowledgeSettings({ base, onClose }: { base: KnowledgeDetail; onClose: () => void }) {
  const t = useT();
  const makePublic = useAbilities().makePublic;
  const qc = useQueryClient();
  const [name, setName] = useState(base.name);
  const [description, setDescription] = useState(base.description);
  const [access, setAccess] = useState<AccessControl>(base.access_control);
  const [language, setLanguage] = useState<AnalysisLanguage | ''>(base.language ?? '');
  const { busy, error, onSubmit } = useFormSubmit(async () => {
    await knowledgeApi.update(base.id, name.trim(), description, access, language !== '' && language !== base.language ? language : undefined);
    await qc.invalidateQueries({ queryKey: ['knowledge'] });
    onClose();
  });
  return (
    <Modal title={t('knowledge.settings')} onClose={onClose} wide>
      <form className="col" onSubmit={onSubmit}>
        <TextField label={t('common.name')} value={name} onChange={(e) => setName(e.target.value)} required autoFocus />
        <TextArea label={t('common.description')} value={description} onChange={(e) => setDescription(e.target.value)} rows={3} />
        <SelectField label={t('knowledge.language')} hint={t('knowledge.languageHint')} value={language} onChange={(e) => setLanguage(e.target.value as AnalysisLanguage | '')}>
          {base.language === null && <option value="">{t('knowledge.languageDetect')}</option>}
          {ANALYSIS_LANGUAGES.map((l) => (
            <option key={l} value={l}>
              {languageName(l)}
            </option>
          ))}
        </SelectField>
        <ReindexProgress base={base} />
        <div className="field">
          <span className="field-label">{t('workspace.access')}</span>
          <AccessEditor name="knowledge-access" canMakePublic={makePublic.knowledge} value={access} onChange={setAccess} privateHint={t('workspace.knowledgePrivateHint')} />
        </div>
        <FormFooter error={error} busy={busy} disabled={!name.trim()} onCancel={onClose} />
      </form>
    </Modal>
  );
}
