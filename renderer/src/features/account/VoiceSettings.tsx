import { useSettings } from '../../app/settings';
import { Switch } from '../../components/Field';
import { useT } from '../../lib/i18n';
import { browserRecognitionAvailable } from '../audio/browser-recognition';
import { voiceChoicesOf, voiceSettingsPatch } from '../audio/voice-settings';

/** Account settings for the microphone: send at once after dictation; the browser's own recognition where it exists (an opt-in). */
export function VoiceSettings() {
  const t = useT();
  const { settings, update } = useSettings();
  const choices = voiceChoicesOf(settings);
  return (
    <section className="card" aria-labelledby="voice-settings-h">
      <div className="card-title">
        <h2 id="voice-settings-h">{t('account.voice')}</h2>
      </div>
      <div className="col">
        <Switch label={t('account.voiceAutoSend')} checked={choices.autoSend} onChange={(on) => void update(voiceSettingsPatch(settings, { autoSend: on }))} />
        {browserRecognitionAvailable() && (
          <Switch label={t('account.voiceBrowser')} hint={t('account.voiceBrowserHint')} checked={choices.browserRecognition} onChange={(on) => void update(voiceSettingsPatch(settings, { browserRecognition: on }))} />
        )}
      </div>
    </section>
  );
}
