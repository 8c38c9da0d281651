import { Icon } from '../../../components/Icon';
import { useT } from '../../../lib/i18n';
import type { ComposerFeatureProps } from './features';
import { useFeatureAvailable } from './feature-availability';

/** The globe: searches the web for the next answers of the conversation. Shown only where web search works. */
export function WebSearchToggle({ disabled, model, choices, onChoices }: ComposerFeatureProps) {
  const t = useT();
  const available = useFeatureAvailable('web_search', model);
  if (!available) return null;
  const on = choices.webSearch;
  const label = on ? t('chat.webSearchOn') : t('chat.webSearch');
  return (
    <button type="button" className={`icon-btn${on ? ' active' : ''}`} aria-pressed={on} aria-label={t('chat.webSearch')} title={label} disabled={disabled} onClick={() => onChoices({ webSearch: !on })} data-testid="web-search-toggle">
      <Icon name="globe" />
    </button>
  );
}
