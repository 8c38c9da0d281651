import { codeApi, type CodeExecutionConfig } from '../../api/code';
import { ErrorNotice, Loading } from '../../components/Feedback';
import { Switch, TextArea } from '../../components/Field';
import { NumberField, numberError } from '../../components/NumberField';
import { useConfigForm } from '../../hooks/use-config-form';
import { useT } from '../../lib/i18n';
import { SaveBar } from './SaveBar';

/** Code execution settings: the Run button, the code interpreter, its prompt and the sandbox's limits. */
export function CodeExecutionPanel() {
  const t = useT();
  const form = useConfigForm<CodeExecutionConfig>('code_execution', codeApi.config, codeApi.setConfig);
  const d = form.draft;
  const valid = d !== null && numberError(d.CODE_EXECUTION_TIMEOUT, 1, 600, true) === null && numberError(d.CODE_EXECUTION_MEMORY_MB, 64, 2048, true) === null && numberError(d.CODE_INTERPRETER_MAX_ROUNDS, 1, 20, true) === null && numberError(d.CODE_EXECUTION_MAX_SANDBOXES, 1, 32, true) === null;
  return (
    <section className="card">
      <div className="card-title">
        <h2>{t('admin.code')}</h2>
      </div>
      <p className="section-desc">{t('admin.codeDesc')}</p>
      {form.query.isPending && <Loading />}
      {form.query.isError && <ErrorNotice error={form.query.error} onRetry={() => void form.query.refetch()} />}
      {d && (
        <div className="col">
          <Switch label={t('admin.code.execution')} hint={t('admin.code.executionHint')} checked={d.ENABLE_CODE_EXECUTION} onChange={(v) => form.set('ENABLE_CODE_EXECUTION', v)} />
          <Switch label={t('admin.code.interpreter')} hint={t('admin.code.interpreterHint')} checked={d.ENABLE_CODE_INTERPRETER} onChange={(v) => form.set('ENABLE_CODE_INTERPRETER', v)} />
          <div className="form-grid">
            <NumberField label={t('admin.code.timeout')} value={d.CODE_EXECUTION_TIMEOUT} min={1} max={600} onChange={(v) => form.set('CODE_EXECUTION_TIMEOUT', v)} />
            <NumberField label={t('admin.code.memory')} value={d.CODE_EXECUTION_MEMORY_MB} min={64} max={2048} onChange={(v) => form.set('CODE_EXECUTION_MEMORY_MB', v)} />
            <NumberField label={t('admin.code.rounds')} value={d.CODE_INTERPRETER_MAX_ROUNDS} min={1} max={20} onChange={(v) => form.set('CODE_INTERPRETER_MAX_ROUNDS', v)} />
            <NumberField label={t('admin.code.sandboxes')} value={d.CODE_EXECUTION_MAX_SANDBOXES} min={1} max={32} onChange={(v) => form.set('CODE_EXECUTION_MAX_SANDBOXES', v)} hint={t('admin.code.sandboxesHint')} />
          </div>
          <TextArea label={t('admin.code.prompt')} value={d.CODE_INTERPRETER_PROMPT_TEMPLATE ?? ''} onChange={(e) => form.set('CODE_INTERPRETER_PROMPT_TEMPLATE', e.target.value)} rows={4} placeholder={t('admin.tasks.defaultTemplate')} />
          <p className="tiny muted">{t('admin.code.offline')}</p>
          <SaveBar onSave={() => void form.submit()} saving={form.saving} dirty={form.dirty && valid} error={form.error} />
        </div>
      )}
    </section>
  );
}
