import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { isEmbeddingModel } from '../../../../server/contracts/model-kind';
import { knowledgeApi } from '../../api/knowledge';
import { modelsApi, type ModelCapability, type ModelForm } from '../../api/models';
import { toolsApi } from '../../api/tools';
import { useFeatureWorks } from '../../app/feature-switches';
import { useUser } from '../../app/session';
import { AccessEditor } from '../../components/AccessEditor';
import { useAbilities } from '../../app/abilities';
import { ErrorNotice, Loading } from '../../components/Feedback';
import { SelectField, Switch, TextArea, TextField } from '../../components/Field';
import { FormFooter } from '../../components/FormFooter';
import { useFormSubmit } from '../../hooks/use-form-submit';
import { useT, type StringKey } from '../../lib/i18n';

const CAPABILITIES: ModelCapability[] = ['vision', 'file_upload', 'web_search', 'image_generation', 'code_interpreter', 'citations', 'status_updates', 'usage'];
/** The sampling parameters the editor offers, with their label and input step. */
const NUMBER_PARAMS: Array<[string, StringKey, number]> = [
  ['temperature', 'workspace.temperature', 0.1],
  ['top_p', 'workspace.topP', 0.05],
  ['max_tokens', 'workspace.maxTokens', 1],
  ['seed', 'workspace.seed', 1],
];
const ID_PATTERN = /^[A-Za-z0-9][\w.\-/:]*$/;

function emptyForm(): ModelForm {
  return { id: '', name: '', base_model_id: '', params: { system: '' }, meta: { description: '', capabilities: { citations: true, file_upload: true, web_search: true }, knowledge: [], toolIds: [], tags: [] }, access_control: {}, is_active: true };
}

/** Creates or edits a custom model: base model, system prompt, params, knowledge, tools, capabilities, tags, access. */
export function ModelEditor() {
  const t = useT();
  const makePublic = useAbilities().makePublic;
  const user = useUser();
  const works = useFeatureWorks();
  const [params] = useSearchParams();
  const editId = params.get('id');
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [form, setForm] = useState<ModelForm>(emptyForm);
  const [tags, setTags] = useState('');
  const [idTouched, setIdTouched] = useState(false);

  const existing = useQuery({ queryKey: ['models', 'one', editId], queryFn: () => modelsApi.get(editId!), enabled: !!editId });
  const bases = useQuery({
    queryKey: ['models', 'bases', user.role],
    queryFn: async () => (user.role === 'admin' ? modelsApi.base().catch(() => modelsApi.available()) : modelsApi.available()).then((list) => list.filter((m) => !m.base_model_id && !isEmbeddingModel(m.id))),
  });
  const knowledge = useQuery({ queryKey: ['knowledge'], queryFn: knowledgeApi.list });
  const tools = useQuery({ queryKey: ['tools'], queryFn: toolsApi.list });

  useEffect(() => {
    if (!existing.data) return;
    const m = existing.data;
    setForm({ id: m.id, name: m.name, base_model_id: m.base_model_id, params: m.params ?? {}, meta: m.meta ?? {}, access_control: m.access_control, is_active: m.is_active });
    setTags((m.meta?.tags ?? []).map((x) => (typeof x === 'string' ? x : String((x as { name?: unknown }).name ?? ''))).filter(Boolean).join(', '));
  }, [existing.data]);

  const meta = form.meta;
  const setMeta = (patch: Partial<ModelForm['meta']>) => setForm((f) => ({ ...f, meta: { ...f.meta, ...patch } }));
  const setParam = (key: string, value: unknown) => setForm((f) => ({ ...f, params: { ...f.params, [key]: value } }));

  const idError = !editId && form.id && !ID_PATTERN.test(form.id) ? t('workspace.modelIdHint') : null;
  const numberParam = (key: string, label: string, step: number) => (
    <TextField
      key={key}
      label={label}
      type="number"
      step={step}
      value={typeof form.params[key] === 'number' ? String(form.params[key]) : ''}
      onChange={(e) => setParam(key, e.target.value === '' ? undefined : Number(e.target.value))}
      placeholder={t('workspace.paramDefault')}
    />
  );

  const { busy, error, onSubmit: submit } = useFormSubmit(async () => {
    const body: ModelForm = {
      ...form,
      id: form.id.trim(),
      name: form.name.trim(),
      meta: { ...meta, tags: tags.split(',').map((s) => s.trim()).filter(Boolean).map((name) => ({ name })) },
      params: Object.fromEntries(Object.entries(form.params).filter(([, v]) => v !== undefined && !(typeof v === 'number' && Number.isNaN(v)))),
    };
    if (editId) await modelsApi.update(editId, body);
    else await modelsApi.create(body);
    await qc.invalidateQueries({ queryKey: ['models'] });
    navigate('/workspace/models');
  });

  if (editId && existing.isPending) return <Loading />;
  if (editId && existing.isError) return <ErrorNotice error={existing.error} onRetry={() => void existing.refetch()} />;

  const toggleIn = (list: string[], id: string) => (list.includes(id) ? list.filter((x) => x !== id) : [...list, id]);
  return (
    <form className="col" onSubmit={submit} aria-label={editId ? form.name : t('workspace.newModel')}>
      <section className="card col">
        <h2>{editId ? form.name || editId : t('workspace.newModel')}</h2>
        <div className="form-grid">
          <TextField label={t('common.name')} value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value, id: editId || idTouched ? form.id : e.target.value.toLowerCase().trim().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') })} required />
          <TextField label={t('workspace.modelId')} value={form.id} onChange={(e) => (setIdTouched(true), setForm({ ...form, id: e.target.value }))} disabled={!!editId} required hint={t('workspace.modelIdHint')} error={idError} />
          <SelectField label={t('workspace.baseModel')} value={form.base_model_id ?? ''} onChange={(e) => setForm({ ...form, base_model_id: e.target.value })} required>
            <option value="" disabled>
              —
            </option>
            {(bases.data ?? []).map((m) => (
              <option key={m.id} value={m.id}>
                {m.name}
              </option>
            ))}
            {form.base_model_id && !bases.data?.some((m) => m.id === form.base_model_id) && <option value={form.base_model_id}>{form.base_model_id}</option>}
          </SelectField>
        </div>
        <TextField label={t('common.description')} value={meta.description ?? ''} onChange={(e) => setMeta({ description: e.target.value })} />
        <TextArea label={t('workspace.systemPrompt')} value={form.params.system ?? ''} onChange={(e) => setParam('system', e.target.value)} rows={6} placeholder={t('workspace.systemPromptPlaceholder')} />
      </section>
      <section className="card col">
        <h3>{t('workspace.params')}</h3>
        <div className="form-grid">
          {NUMBER_PARAMS.map(([param, label, step]) => numberParam(param, t(label), step))}
        </div>
      </section>
      <section className="card col">
        <h3>{t('workspace.knowledge')}</h3>
        {knowledge.isError ? (
          <ErrorNotice error={knowledge.error} />
        ) : (
          <div className="chips-input">
            {(knowledge.data ?? []).length === 0 && <span className="muted small">{t('chat.knowledgeNone')}</span>}
            {(knowledge.data ?? []).map((k) => {
              const on = (meta.knowledge ?? []).some((x) => x.id === k.id);
              return (
                <button key={k.id} type="button" className="chip-toggle" aria-pressed={on} onClick={() => setMeta({ knowledge: on ? (meta.knowledge ?? []).filter((x) => x.id !== k.id) : [...(meta.knowledge ?? []), { id: k.id, name: k.name, type: 'collection' }] })}>
                  {k.name}
                </button>
              );
            })}
          </div>
        )}
        <h3 className="mt">{t('workspace.tools')}</h3>
        {tools.isError ? (
          <ErrorNotice error={tools.error} />
        ) : (
          <div className="chips-input">
            {(tools.data ?? []).length === 0 && <span className="muted small">{t('chat.toolsNone')}</span>}
            {(tools.data ?? []).map((tool) => {
              const on = (meta.toolIds ?? []).includes(tool.id);
              return (
                <button key={tool.id} type="button" className="chip-toggle" aria-pressed={on} onClick={() => setMeta({ toolIds: toggleIn(meta.toolIds ?? [], tool.id) })}>
                  {tool.name}
                </button>
              );
            })}
          </div>
        )}
        <h3 className="mt">{t('workspace.capabilities')}</h3>
        <div className="chips-input">
          {CAPABILITIES.filter((c) => works(c)).map((c) => {
            const on = meta.capabilities?.[c] === true;
            return (
              <button key={c} type="button" className="chip-toggle" aria-pressed={on} onClick={() => setMeta({ capabilities: { ...meta.capabilities, [c]: !on } })}>
                {t(`workspace.capability.${c}`)}
              </button>
            );
          })}
        </div>
        <TextField label={t('workspace.tags')} value={tags} onChange={(e) => setTags(e.target.value)} hint={t('workspace.tagsHint')} />
      </section>
      <section className="card col">
        <h3>{t('workspace.access')}</h3>
        <AccessEditor name="model-access" canMakePublic={makePublic.models} value={form.access_control} onChange={(access_control) => setForm((f) => ({ ...f, access_control }))} privateHint={t('workspace.modelPrivateHint')} />
        <Switch label={t('workspace.active')} checked={form.is_active} onChange={(v) => setForm({ ...form, is_active: v })} />
      </section>
      <FormFooter error={error} busy={busy} disabled={!form.name.trim() || !form.id.trim() || !form.base_model_id || !!idError} onCancel={() => navigate('/workspace/models')} />
    </form>
  );
}
