import { useQueryClient } from '@tanstack/react-query';
import type { AudioConfig } from '../../../../server/contracts/audio';
import { audioApi } from '../../api/audio';
import { ErrorNotice, Loading } from '../../components/Feedback';
import { SelectField, Switch, TextField } from '../../components/Field';
import { NumberField } from '../../components/NumberField';
import { useConfigForm } from '../../hooks/use-config-form';
import { useT } from '../../lib/i18n';
import { SaveBar } from './SaveBar';

/** Admin → Audio: the speech-to-text and read-aloud engines, their provider, limits and keeping. */
export function AudioPanel() {
  const t = useT();
  const qc = useQueryClient();
  const form = useConfigForm<AudioConfig>('audio', audioApi.config, async (draft) => {
    const saved = await audioApi.updateConfig(draft);
    void qc.invalidateQueries({ queryKey: ['audio-engines'] });
    return saved;
  });
  const d = form.draft;
  const setStt = (patch: Partial<AudioConfig['stt']>) => d && form.set('stt', { ...d.stt, ...patch });
  const setTts = (patch: Partial<AudioConfig['tts']>) => d && form.set('tts', { ...d.tts, ...patch });
  return (
    <section className="card" data-testid="audio-panel">
      <div className="card-title">
        <h2>{t('admin.audio')}</h2>
      </div>
      <p className="section-desc">{t('admin.audioDesc')}</p>
      {form.query.isPending && <Loading />}
      {form.query.isError && <ErrorNotice error={form.query.error} onRetry={() => void form.query.refetch()} />}
      {d && (
        <div className="col">
          <h3>{t('admin.audioStt')}</h3>
          <div className="form-grid">
            <SelectField label={t('admin.audioEngine')} value={d.stt.ENGINE} onChange={(e) => setStt({ ENGINE: e.target.value as AudioConfig['stt']['ENGINE'] })} data-testid="stt-engine">
              <option value="">{t('admin.audioSttBrowser')}</option>
              <option value="local">{t('admin.audioSttLocal')}</option>
              <option value="openai">{t('admin.audioProvider')}</option>
            </SelectField>
            {d.stt.ENGINE !== '' && <TextField label={t('admin.audioModel')} value={d.stt.MODEL} onChange={(e) => setStt({ MODEL: e.target.value })} hint={d.stt.ENGINE === 'local' ? t('admin.audioLocalModelHint') : t('admin.audioProviderModelHint')} />}
            {d.stt.ENGINE === 'openai' && (
              <>
                <TextField label={t('admin.audioBaseUrl')} value={d.stt.OPENAI_API_BASE_URL} onChange={(e) => setStt({ OPENAI_API_BASE_URL: e.target.value })} />
                <TextField label={t('admin.audioKey')} type="password" value={d.stt.OPENAI_API_KEY} onChange={(e) => setStt({ OPENAI_API_KEY: e.target.value })} />
              </>
            )}
            <NumberField label={t('admin.audioMaxSize')} value={d.stt.MAX_FILE_SIZE_MB} min={1} max={200} onChange={(v) => setStt({ MAX_FILE_SIZE_MB: v })} />
            <NumberField label={t('admin.audioMaxSeconds')} value={d.stt.MAX_DURATION_SECONDS} min={5} max={7200} onChange={(v) => setStt({ MAX_DURATION_SECONDS: v })} />
          </div>
          <Switch label={t('admin.audioKeep')} checked={d.stt.KEEP_AUDIO} onChange={(v) => setStt({ KEEP_AUDIO: v })} />
          <h3>{t('admin.audioTts')}</h3>
          <div className="form-grid">
            <SelectField label={t('admin.audioEngine')} value={d.tts.ENGINE} onChange={(e) => setTts({ ENGINE: e.target.value as AudioConfig['tts']['ENGINE'] })} data-testid="tts-engine">
              <option value="">{t('admin.audioTtsBrowser')}</option>
              <option value="local">{t('admin.audioTtsLocal')}</option>
              <option value="openai">{t('admin.audioProvider')}</option>
            </SelectField>
            {d.tts.ENGINE !== '' && <TextField label={t('admin.audioVoice')} value={d.tts.VOICE} onChange={(e) => setTts({ VOICE: e.target.value })} hint={d.tts.ENGINE === 'local' ? t('admin.audioLocalVoiceHint') : t('admin.audioProviderVoiceHint')} />}
            {d.tts.ENGINE === 'openai' && (
              <>
                <TextField label={t('admin.audioModel')} value={d.tts.MODEL} onChange={(e) => setTts({ MODEL: e.target.value })} />
                <TextField label={t('admin.audioBaseUrl')} value={d.tts.OPENAI_API_BASE_URL} onChange={(e) => setTts({ OPENAI_API_BASE_URL: e.target.value })} />
                <TextField label={t('admin.audioKey')} type="password" value={d.tts.OPENAI_API_KEY} onChange={(e) => setTts({ OPENAI_API_KEY: e.target.value })} />
              </>
            )}
            <SelectField label={t('admin.audioSplit')} value={d.tts.SPLIT_ON} onChange={(e) => setTts({ SPLIT_ON: e.target.value as AudioConfig['tts']['SPLIT_ON'] })}>
              <option value="punctuation">{t('admin.audioSplitSentences')}</option>
              <option value="paragraphs">{t('admin.audioSplitParagraphs')}</option>
              <option value="none">{t('admin.audioSplitNone')}</option>
            </SelectField>
          </div>
          <SaveBar onSave={() => void form.submit()} saving={form.saving} dirty={form.dirty} error={form.error} />
        </div>
      )}
    </section>
  );
}
