import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { AccessControl } from '../../../../server/contracts/access';
import { channelsApi, type Channel } from '../../api/channels';
import { knowledgeApi } from '../../api/knowledge';
import { toolsApi } from '../../api/tools';
import { AccessEditor } from '../../components/AccessEditor';
import { useConfirm } from '../../components/Confirm';
import { TextArea, TextField } from '../../components/Field';
import { FormFooter } from '../../components/FormFooter';
import { Modal } from '../../components/Modal';
import { useFormSubmit } from '../../hooks/use-form-submit';
import { useT } from '../../lib/i18n';
import { CHANNELS_KEY } from './live';
import '../workspace/workspace.css';

function toggle(list: string[], id: string): string[] {
  return list.includes(id) ? list.filter((x) => x !== id) : [...list, id];
}

/** Chips to pick some of `options` (knowledge bases, tools). */
function Picker({ label, hint, none, options, value, onChange }: { label: string; hint: string; none: string; options: Array<{ id: string; name: string }>; value: string[]; onChange: (next: string[]) => void }) {
  return (
    <div className="field">
      <span className="field-label">{label}</span>
      {options.length === 0 ? (
        <span className="hint">{none}</span>
      ) : (
        <div className="chips-input">
          {options.map((o) => (
            <button key={o.id} type="button" className="chip-toggle" aria-pressed={value.includes(o.id)} onClick={() => onChange(toggle(value, o.id))}>
              {o.name}
            </button>
          ))}
        </div>
      )}
      <span className="hint">{hint}</span>
    </div>
  );
}

/** Creates a channel, or changes one (its managers): name, description, members, knowledge and tools for model answers. */
export function ChannelDialog({ channel, onClose }: { channel?: Channel; onClose: () => void }) {
  const t = useT();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const confirm = useConfirm();
  const [name, setName] = useState(channel?.name ?? '');
  const [description, setDescription] = useState(channel?.description ?? '');
  const [access, setAccess] = useState<AccessControl>(channel ? channel.access_control : null);
  const [knowledge, setKnowledge] = useState<string[]>(channel?.data?.knowledge_ids ?? []);
  const [tools, setTools] = useState<string[]>(channel?.data?.tool_ids ?? []);
  const bases = useQuery({ queryKey: ['knowledge'], queryFn: knowledgeApi.list });
  const toolList = useQuery({ queryKey: ['tools'], queryFn: toolsApi.list });

  const form = useFormSubmit(async () => {
    const body = { name, description: description.trim() || null, data: { knowledge_ids: knowledge, tool_ids: tools }, access_control: access };
    const saved = channel ? await channelsApi.update(channel.id, body) : await channelsApi.create(body);
    await qc.invalidateQueries({ queryKey: CHANNELS_KEY, exact: true });
    onClose();
    if (!channel) navigate(`/channels/${saved.id}`);
  });

  const remove = async () => {
    if (!channel || !(await confirm(t('channels.deleteConfirm', { name: channel.name }), { action: t('channels.delete') }))) return;
    await channelsApi.remove(channel.id);
    await qc.invalidateQueries({ queryKey: CHANNELS_KEY, exact: true });
    onClose();
    navigate('/');
  };

  return (
    <Modal title={channel ? t('channels.settings') : t('channels.new')} onClose={onClose} wide>
      <form className="col" onSubmit={(e) => void form.onSubmit(e)}>
        <TextField label={t('channels.name')} value={name} onChange={(e) => setName(e.target.value)} placeholder={t('channels.namePlaceholder')} maxLength={64} required autoFocus />
        <TextArea label={t('channels.description')} value={description} onChange={(e) => setDescription(e.target.value)} rows={2} maxLength={2000} />
        <div className="field">
          <span className="field-label">{t('channels.members')}</span>
          <AccessEditor value={access} onChange={setAccess} name="channel-access" publicLabel={t('channels.public')} privateLabel={t('channels.private')} />
        </div>
        <Picker label={t('channels.knowledge')} hint={t('channels.knowledgeHint')} none={t('channels.noKnowledge')} options={bases.data ?? []} value={knowledge} onChange={setKnowledge} />
        <Picker label={t('channels.tools')} hint={t('channels.toolsHint')} none={t('channels.noTools')} options={(toolList.data ?? []).filter((x) => x.enabled)} value={tools} onChange={setTools} />
        <FormFooter error={form.error} busy={form.busy} disabled={!name.trim()} onCancel={onClose} submitLabel={channel ? t('common.save') : t('channels.create')} />
        {channel?.write_access && (
          <div className="row">
            <button type="button" className="btn danger" onClick={() => void remove()}>
              {t('channels.delete')}
            </button>
          </div>
        )}
      </form>
    </Modal>
  );
}
