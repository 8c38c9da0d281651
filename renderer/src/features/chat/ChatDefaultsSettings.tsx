import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { modelsApi } from '../../api/models';
import { useSettings } from '../../app/settings';
import { SelectField, TextArea } from '../../components/Field';
import { useToast } from '../../components/Toasts';
import { useT } from '../../lib/i18n';

/** Account settings for chats: the default model of new chats and a personal system prompt (saved in the user's UI settings as `models` and `system`). */
export function ChatDefaultsSettings() {
  const t = useT();
  const toast = useToast();
  const { settings, update } = useSettings();
  const personal = settings as { models?: unknown; system?: unknown };
  const models = useQuery({ queryKey: ['models', 'available'], queryFn: modelsApi.available });
  const current = Array.isArray(personal.models) && typeof personal.models[0] === 'string' ? personal.models[0] : '';
  const [system, setSystem] = useState(typeof personal.system === 'string' ? personal.system : '');
  useEffect(() => setSystem(typeof personal.system === 'string' ? personal.system : ''), [personal.system]);

  return (
    <section className="card" aria-labelledby="chat-defaults-h">
      <div className="card-title">
        <h2 id="chat-defaults-h">{t('chat.personal')}</h2>
      </div>
      <p className="section-desc">{t('chat.personalDesc')}</p>
      <div className="col">
        <div style={{ maxWidth: 360 }}>
          <SelectField label={t('chat.defaultModel')} value={current} onChange={(e) => void update({ models: e.target.value ? [e.target.value] : [] }).then(() => toast(t('chat.saved'), 'info'))}>
            <option value="">{t('chat.defaultModelNone')}</option>
            {(models.data ?? []).map((m) => (
              <option key={m.id} value={m.id}>
                {m.name}
              </option>
            ))}
            {current && !models.data?.some((m) => m.id === current) && <option value={current}>{current}</option>}
          </SelectField>
        </div>
        <form
          className="col"
          onSubmit={(e) => {
            e.preventDefault();
            void update({ system }).then(() => toast(t('chat.saved'), 'info'));
          }}
        >
          <TextArea label={t('chat.systemPrompt')} hint={t('chat.systemPromptHint')} rows={4} value={system} onChange={(e) => setSystem(e.target.value)} maxLength={20000} />
          <div>
            <button type="submit" className="btn primary small">
              {t('common.save')}
            </button>
          </div>
        </form>
      </div>
    </section>
  );
}
