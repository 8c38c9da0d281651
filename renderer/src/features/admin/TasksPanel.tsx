import { useQuery } from '@tanstack/react-query';
import { modelsApi } from '../../api/models';
import { settingsApi, type TaskConfig } from '../../api/settings';
import { ErrorNotice, Loading } from '../../components/Feedback';
import { SelectField, Switch, TextArea, TextField } from '../../components/Field';
import { useConfigForm } from '../../hooks/use-config-form';
import { useT, type StringKey } from '../../lib/i18n';
import { NumberField, numberError } from '../../components/NumberField';
import { SaveBar } from './SaveBar';

type Flag = 'ENABLE_TITLE_GENERATION' | 'ENABLE_TAGS_GENERATION' | 'ENABLE_FOLLOW_UP_GENERATION' | 'ENABLE_AUTOCOMPLETE_GENERATION' | 'ENABLE_SEARCH_QUERY_GENERATION' | 'ENABLE_RETRIEVAL_QUERY_GENERATION';
type Template = 'TITLE_GENERATION_PROMPT_TEMPLATE' | 'TAGS_GENERATION_PROMPT_TEMPLATE' | 'FOLLOW_UP_GENERATION_PROMPT_TEMPLATE' | 'QUERY_GENERATION_PROMPT_TEMPLATE' | 'TOOLS_FUNCTION_CALLING_PROMPT_TEMPLATE';

const FLAGS: Array<[Flag, StringKey, Template | null]> = [
  ['ENABLE_TITLE_GENERATION', 'admin.tasks.title', 'TITLE_GENERATION_PROMPT_TEMPLATE'],
  ['ENABLE_TAGS_GENERATION', 'admin.tasks.tags', 'TAGS_GENERATION_PROMPT_TEMPLATE'],
  ['ENABLE_FOLLOW_UP_GENERATION', 'admin.tasks.followUps', 'FOLLOW_UP_GENERATION_PROMPT_TEMPLATE'],
  ['ENABLE_AUTOCOMPLETE_GENERATION', 'admin.tasks.autocomplete', null],
  ['ENABLE_SEARCH_QUERY_GENERATION', 'admin.tasks.searchQuery', null],
  ['ENABLE_RETRIEVAL_QUERY_GENERATION', 'admin.tasks.retrievalQuery', 'QUERY_GENERATION_PROMPT_TEMPLATE'],
];

/** Background task settings: task model, switches and prompt templates. */
export function TasksPanel() {
  const t = useT();
  const form = useConfigForm<TaskConfig>('tasks', settingsApi.tasks, settingsApi.setTasks);
  const models = useQuery({ queryKey: ['models', 'available'], queryFn: modelsApi.available });
  const d = form.draft;
  return (
    <section className="card">
      <div className="card-title">
        <h2>{t('admin.tasks')}</h2>
      </div>
      <p className="section-desc">{t('admin.tasksDesc')}</p>
      {form.query.isPending && <Loading />}
      {form.query.isError && <ErrorNotice error={form.query.error} onRetry={() => void form.query.refetch()} />}
      {d && (
        <div className="col">
          <div className="form-grid">
            <SelectField label={t('admin.tasks.model')} value={d.TASK_MODEL} onChange={(e) => form.set('TASK_MODEL', e.target.value)}>
              <option value="">{t('admin.tasks.chatModel')}</option>
              {(models.data ?? []).map((m) => (
                <option key={m.id} value={m.id}>
                  {m.name}
                </option>
              ))}
              {d.TASK_MODEL && !models.data?.some((m) => m.id === d.TASK_MODEL) && <option value={d.TASK_MODEL}>{d.TASK_MODEL}</option>}
            </SelectField>
            <TextField label={t('admin.tasks.externalModel')} value={d.TASK_MODEL_EXTERNAL} onChange={(e) => form.set('TASK_MODEL_EXTERNAL', e.target.value)} />
            <NumberField label={t('admin.tasks.autocompleteLimit')} value={d.AUTOCOMPLETE_GENERATION_INPUT_MAX_LENGTH} min={-1} max={1_000_000} onChange={(v) => form.set('AUTOCOMPLETE_GENERATION_INPUT_MAX_LENGTH', v)} hint={t('admin.tasks.autocompleteLimitHint')} />
          </div>
          {FLAGS.map(([flag, labelKey, template]) => (
            <div key={flag} className="col" style={{ gap: 8 }}>
              <Switch label={t(labelKey)} checked={d[flag]} onChange={(v) => form.set(flag, v)} />
              {template && d[flag] && <TextArea label={t('admin.tasks.template', { task: t(labelKey) })} value={d[template]} onChange={(e) => form.set(template, e.target.value)} rows={3} placeholder={t('admin.tasks.defaultTemplate')} />}
            </div>
          ))}
          <TextArea label={t('admin.tasks.toolTemplate')} value={d.TOOLS_FUNCTION_CALLING_PROMPT_TEMPLATE} onChange={(e) => form.set('TOOLS_FUNCTION_CALLING_PROMPT_TEMPLATE', e.target.value)} rows={3} placeholder={t('admin.tasks.defaultTemplate')} />
          <SaveBar onSave={() => void form.submit()} saving={form.saving} dirty={form.dirty && numberError(d.AUTOCOMPLETE_GENERATION_INPUT_MAX_LENGTH, -1, 1_000_000, true) === null} error={form.error} />
        </div>
      )}
    </section>
  );
}
