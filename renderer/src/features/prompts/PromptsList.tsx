import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { AccessControl } from '../../../../server/contracts/access';
import { promptsApi, type Prompt } from '../../api/library';
import { messageOf } from '../../components/Feedback';
import { TextArea, TextField } from '../../components/Field';
import { FormFooter } from '../../components/FormFooter';
import { Icon } from '../../components/Icon';
import { Modal } from '../../components/Modal';
import { ItemActions, ResourceCard, ResourceIcon, ResourceList, ResourceTitle } from '../../components/ResourceList';
import { useToast } from '../../components/Toasts';
import { useFormSubmit } from '../../hooks/use-form-submit';
import { useT } from '../../lib/i18n';
import { AccessEditor } from '../../components/AccessEditor';
import { useAbilities } from '../../app/abilities';

/** How the content hint writes the variables (as typed in a prompt). */
const VARIABLE_EXAMPLES = { clipboard: '{{CLIPBOARD}}', date: '{{CURRENT_DATE}}', time: '{{CURRENT_TIME}}', user: '{{USER_NAME}}', custom: '{{name}}' };

/** The workspace prompts page: the library of `/commands`, with create, edit and delete. */
export function PromptsList() {
  const t = useT();
  const qc = useQueryClient();
  const toast = useToast();
  const [editing, setEditing] = useState<Prompt | 'new' | null>(null);
  const [filter, setFilter] = useState('');
  const list = useQuery({ queryKey: ['prompts'], queryFn: promptsApi.list });
  const remove = useMutation({ mutationFn: promptsApi.remove, onSuccess: () => void qc.invalidateQueries({ queryKey: ['prompts'] }), onError: (e) => toast(messageOf(e), 'error') });
  const q = filter.trim().toLowerCase();
  const shown = (list.data ?? []).filter((p) => !q || p.command.includes(q) || p.title.toLowerCase().includes(q));
  return (
    <section>
      <div className="row mb wrap">
        <input className="input grow" type="search" value={filter} onChange={(e) => setFilter(e.target.value)} placeholder={t('common.search')} aria-label={t('common.search')} style={{ maxWidth: 320 }} />
        <div className="grow" />
        <button type="button" className="btn primary" onClick={() => setEditing('new')}>
          <Icon name="plus" size={16} />
          {t('prompts.new')}
        </button>
      </div>
      <ResourceList query={list} items={list.data ? shown : undefined} empty={q && list.data?.length ? t('prompts.none', { query: filter.trim() }) : t('prompts.empty')} itemKey={(p) => p.command}>
        {(p) => (
          <ResourceCard
            testId="prompt-card"
            icon={<ResourceIcon>/</ResourceIcon>}
            title={<ResourceTitle>{p.title}</ResourceTitle>}
            meta={
              <div className="row gap-s">
                <span className="badge">{p.command}</span>
                <span className="badge">{p.access_control === null ? t('prompts.public') : t('prompts.private')}</span>
              </div>
            }
            description={p.content.length > 160 ? `${p.content.slice(0, 160)}…` : p.content}
            footer={
              p.write_access && (
                <div className="row end">
                  <ItemActions name={p.command} onEdit={() => setEditing(p)} onDelete={() => remove.mutate(p.command)} confirmDelete={t('prompts.deleteConfirm', { command: p.command })} />
                </div>
              )
            }
          />
        )}
      </ResourceList>
      {editing && <PromptEditor prompt={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
    </section>
  );
}

/** Creates a prompt, or edits one (its command included). */
function PromptEditor({ prompt, onClose }: { prompt: Prompt | null; onClose: () => void }) {
  const t = useT();
  const makePublic = useAbilities().makePublic;
  const qc = useQueryClient();
  const [command, setCommand] = useState(prompt?.command ?? '/');
  const [title, setTitle] = useState(prompt?.title ?? '');
  const [content, setContent] = useState(prompt?.content ?? '');
  const [access, setAccess] = useState<AccessControl>(prompt ? prompt.access_control : {});
  const { busy, error, onSubmit } = useFormSubmit(async () => {
    const body = { command: command.trim(), title: title.trim(), content, access_control: access };
    if (prompt) await promptsApi.update(prompt.command, body);
    else await promptsApi.create(body);
    await qc.invalidateQueries({ queryKey: ['prompts'] });
    onClose();
  });
  return (
    <Modal title={prompt ? t('common.editNamed', { name: prompt.command }) : t('prompts.new')} onClose={onClose} wide>
      <form className="col" onSubmit={onSubmit}>
        <div className="form-grid">
          <TextField label={t('prompts.command')} hint={t('prompts.commandHint')} value={command} onChange={(e) => setCommand(e.target.value)} required autoFocus />
          <TextField label={t('prompts.promptTitle')} value={title} onChange={(e) => setTitle(e.target.value)} required />
        </div>
        <TextArea label={t('prompts.content')} hint={t('prompts.contentHint', VARIABLE_EXAMPLES)} value={content} onChange={(e) => setContent(e.target.value)} rows={8} required />
        <div className="field">
          <span className="field-label">{t('prompts.access')}</span>
          <AccessEditor name="prompt-access" canMakePublic={makePublic.models} value={access} onChange={setAccess} publicLabel={t('prompts.public')} privateLabel={t('prompts.private')} />
        </div>
        <FormFooter error={error} busy={busy} disabled={!title.trim() || command.trim().length < 2 || !content.trim()} onCancel={onClose} />
      </form>
    </Modal>
  );
}
