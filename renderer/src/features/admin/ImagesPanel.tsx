import { useQuery } from '@tanstack/react-query';
import { imagesApi, type ImagesConfig } from '../../api/code';
import { ErrorNotice, Loading, messageOf } from '../../components/Feedback';
import { SelectField, Switch, TextArea, TextField } from '../../components/Field';
import { NumberField, numberError } from '../../components/NumberField';
import { useConfigForm } from '../../hooks/use-config-form';
import { useT } from '../../lib/i18n';
import { SaveBar } from './SaveBar';

const ENGINES = ['openai', 'comfyui', 'automatic1111'] as const;

/** Image generation settings: the engine, its URL and key (shown masked), model, size, steps, ComfyUI's workflow. */
export function ImagesPanel() {
  const t = useT();
  const form = useConfigForm<ImagesConfig>('images', imagesApi.config, imagesApi.setConfig);
  const d = form.draft;
  const models = useQuery({ queryKey: ['images', 'models', d?.IMAGE_GENERATION_ENGINE], queryFn: imagesApi.models, enabled: !!d?.ENABLE_IMAGE_GENERATION && !form.dirty, retry: false });
  const nodesText = d ? JSON.stringify(d.COMFYUI_WORKFLOW_NODES, null, 2) : '';
  return (
    <section className="card">
      <div className="card-title">
        <h2>{t('admin.images')}</h2>
      </div>
      <p className="section-desc">{t('admin.imagesDesc')}</p>
      {form.query.isPending && <Loading />}
      {form.query.isError && <ErrorNotice error={form.query.error} onRetry={() => void form.query.refetch()} />}
      {d && (
        <div className="col">
          <Switch label={t('admin.images.enable')} checked={d.ENABLE_IMAGE_GENERATION} onChange={(v) => form.set('ENABLE_IMAGE_GENERATION', v)} />
          <Switch label={t('admin.images.promptGeneration')} hint={t('admin.images.promptGenerationHint')} checked={d.ENABLE_IMAGE_PROMPT_GENERATION} onChange={(v) => form.set('ENABLE_IMAGE_PROMPT_GENERATION', v)} />
          <Switch label={t('admin.images.edit')} checked={d.ENABLE_IMAGE_EDIT} onChange={(v) => form.set('ENABLE_IMAGE_EDIT', v)} />
          <div className="form-grid">
            <SelectField label={t('admin.images.engine')} value={d.IMAGE_GENERATION_ENGINE} onChange={(e) => form.set('IMAGE_GENERATION_ENGINE', e.target.value as ImagesConfig['IMAGE_GENERATION_ENGINE'])} data-testid="image-engine">
              {ENGINES.map((engine) => (
                <option key={engine} value={engine}>
                  {t(`admin.images.engine.${engine}`)}
                </option>
              ))}
            </SelectField>
            <TextField label={t('admin.images.model')} value={d.IMAGE_GENERATION_MODEL} onChange={(e) => form.set('IMAGE_GENERATION_MODEL', e.target.value)} list="image-models" hint={models.isError ? messageOf(models.error) : undefined} />
            <datalist id="image-models">
              {(models.data ?? []).map((m) => (
                <option key={m.id} value={m.id}>
                  {m.name}
                </option>
              ))}
            </datalist>
            <TextField label={t('admin.images.size')} value={d.IMAGE_SIZE} onChange={(e) => form.set('IMAGE_SIZE', e.target.value)} />
            <NumberField label={t('admin.images.steps')} value={d.IMAGE_STEPS} min={0} max={500} onChange={(v) => form.set('IMAGE_STEPS', v)} />
          </div>
          {d.IMAGE_GENERATION_ENGINE === 'openai' && (
            <div className="form-grid">
              <TextField label={t('admin.images.url')} value={d.IMAGES_OPENAI_API_BASE_URL} onChange={(e) => form.set('IMAGES_OPENAI_API_BASE_URL', e.target.value)} data-testid="images-openai-url" />
              <TextField label={t('admin.images.key')} type="password" autoComplete="off" value={d.IMAGES_OPENAI_API_KEY} onChange={(e) => form.set('IMAGES_OPENAI_API_KEY', e.target.value)} />
            </div>
          )}
          {d.IMAGE_GENERATION_ENGINE === 'comfyui' && (
            <>
              <div className="form-grid">
                <TextField label={t('admin.images.url')} value={d.COMFYUI_BASE_URL} onChange={(e) => form.set('COMFYUI_BASE_URL', e.target.value)} />
                <TextField label={t('admin.images.key')} type="password" autoComplete="off" value={d.COMFYUI_API_KEY} onChange={(e) => form.set('COMFYUI_API_KEY', e.target.value)} />
              </div>
              <TextArea label={t('admin.images.workflow')} hint={t('admin.images.workflowHint')} value={d.COMFYUI_WORKFLOW} onChange={(e) => form.set('COMFYUI_WORKFLOW', e.target.value)} rows={5} />
              <TextArea
                label={t('admin.images.nodes')}
                defaultValue={nodesText}
                key={nodesText}
                rows={4}
                onBlur={(e) => {
                  try {
                    form.set('COMFYUI_WORKFLOW_NODES', JSON.parse(e.target.value || '[]') as ImagesConfig['COMFYUI_WORKFLOW_NODES']);
                  } catch {
                    /* left as typed until it is JSON */
                  }
                }}
              />
            </>
          )}
          {d.IMAGE_GENERATION_ENGINE === 'automatic1111' && (
            <div className="form-grid">
              <TextField label={t('admin.images.url')} value={d.AUTOMATIC1111_BASE_URL} onChange={(e) => form.set('AUTOMATIC1111_BASE_URL', e.target.value)} />
              <TextField label={t('admin.images.auth')} type="password" autoComplete="off" value={d.AUTOMATIC1111_API_AUTH} onChange={(e) => form.set('AUTOMATIC1111_API_AUTH', e.target.value)} />
            </div>
          )}
          <SaveBar onSave={() => void form.submit()} saving={form.saving} dirty={form.dirty && numberError(d.IMAGE_STEPS, 0, 500, true) === null} error={form.error} />
        </div>
      )}
    </section>
  );
}
